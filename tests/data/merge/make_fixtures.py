#!/usr/bin/env python3
"""Writes the hand-made xlsx fixtures of xlsx_reader_test.cc (and a fuzzing seed) with Python's zipfile (deflated parts),
independently of the C++ reader: shared strings (plain, rich text runs, a phonetic run to skip),
every cell type (s, inlineStr, str with a formula, b, e, n, none), entities, a CDATA text, a
skipped row and a skipped column, and a second sheet. Run once: python3 make_fixtures.py"""
import os
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
RNS = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"'

workbook = (f'<?xml version="1.0" encoding="UTF-8"?>\n<workbook {NS} {RNS}><sheets>'
            '<sheet name="First &amp; only" sheetId="1" r:id="rId7"/>'
            '<sheet name="Second" sheetId="2" r:id="rId8"/></sheets></workbook>')
rels = ('<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
        '<Relationship Id="rId7" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" '
        'Target="worksheets/sheet1.xml"/>'
        '<Relationship Id="rId8" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" '
        'Target="/xl/worksheets/sheet2.xml"/>'
        '<Relationship Id="rId9" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" '
        'Target="sharedStrings.xml"/></Relationships>')
sst = (f'<sst {NS} count="3" uniqueCount="3">'
       '<si><t>NPU Name</t></si>'
       '<si><r><rPr><b/></rPr><t>rich </t></r><r><t xml:space="preserve">text</t></r><rPh><t>skip</t></rPh></si>'
       '<si><t>a&lt;b&gt;&amp;&quot;&#931;&#x3a3;</t></si></sst>')
sheet1 = (f'<worksheet {NS}><!-- a comment --><sheetData>'
          '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="inlineStr"><is><t>Value</t></is></c></row>'
          '<row r="2"><c r="A2" t="s"><v>1</v></c><c r="B2"><v>0.5</v></c><c r="D2" t="b"><v>1</v></c></row>'
          '<row r="4"><c r="A4" t="s"><v>2</v></c><c r="B4" t="str"><f>CONCAT("x","y")</f><v>xy</v></c>'
          '<c r="C4" t="e"><v>#N/A</v></c><c r="D4" t="n"><v>-1.5E-3</v></c></row>'
          '<row r="5"><c r="A5" t="inlineStr"><is><t><![CDATA[<raw & text>]]></t></is></c><c r="B5"/>'
          '<c r="C5" t="b"><v>0</v></c></row>'
          '</sheetData></worksheet>')
sheet2 = f'<worksheet {NS}><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>second</t></is></c></row></sheetData></worksheet>'
content_types = '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'

def write(path, method):
    with zipfile.ZipFile(path, 'w', method) as z:
        z.writestr('[Content_Types].xml', content_types)
        z.writestr('xl/workbook.xml', workbook)
        z.writestr('xl/_rels/workbook.xml.rels', rels)
        z.writestr('xl/sharedStrings.xml', sst)
        z.writestr('xl/worksheets/sheet1.xml', sheet1)
        z.writestr('xl/worksheets/sheet2.xml', sheet2, compress_type=zipfile.ZIP_STORED)


write(os.path.join(HERE, 'handmade.xlsx'), zipfile.ZIP_DEFLATED)
# All parts stored: a fuzzing seed whose XML the fuzzer can mutate directly.
write(os.path.join(HERE, '..', '..', 'fuzz', 'corpus', 'xlsx_reader', 'handmade_stored.xlsx'), zipfile.ZIP_STORED)
