#include "msprobe/compare/xlsx/xlsx_stream_writer.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <string>
#include <vector>

#include "msprobe/compare/xlsx/xlsx_reader.h"
#include "msprobe/compare/xlsx/xlsx_row_xml.h"
#include "msprobe/dump/formats/zip_stream_writer.h"
#include "msprobe/dump/formats/zip_archive.h"
#include "test_support.h"

namespace msprobe::compare {
namespace {

uint32_t Le32(const std::string& s, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(s[at + i]);
  return v;
}
uint64_t Le64(const std::string& s, size_t at) { return Le32(s, at) | (uint64_t{Le32(s, at + 4)} << 32); }
uint16_t Le16(const std::string& s, size_t at) {
  return static_cast<uint16_t>(static_cast<unsigned char>(s[at]) | (static_cast<unsigned char>(s[at + 1]) << 8));
}

// Inflates a raw deflate stream with zlib itself.
std::string Inflate(std::string_view deflated) {
  z_stream z{};
  EXPECT_EQ(inflateInit2(&z, -MAX_WBITS), Z_OK);
  std::string out;
  char buf[4096];
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(deflated.data()));
  z.avail_in = static_cast<uInt>(deflated.size());
  int rc = Z_OK;
  while (rc == Z_OK) {
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
  }
  EXPECT_EQ(rc, Z_STREAM_END);
  inflateEnd(&z);
  return out;
}

uint32_t Crc(std::string_view s) {
  return static_cast<uint32_t>(crc32(0, reinterpret_cast<const Bytef*>(s.data()), static_cast<uInt>(s.size())));
}

std::string RowXml(const std::function<void(XlsxRowXml*)>& fill) {
  std::string out;
  XlsxRowXml xml(&out);
  fill(&xml);
  return out;
}

// --- zip ------------------------------------------------------------------------------------------

TEST(ZipStreamWriter, PiecesDeflatedApartInflateAsOneStreamWithTheJoinedCrc) {
  const std::string parts[] = {std::string(5000, 'a') + "xyz", "second piece <row/>", std::string(70000, 'q')};
  std::string zip;
  ZipStreamWriter writer([&](std::string_view b) { zip.append(b); return Status::Ok(); }, "t.zip");
  ASSERT_TRUE(writer.AddDeflated("small.xml", "<a>hello</a>").ok());
  ASSERT_TRUE(writer.BeginStreamed("big.xml", false).ok());
  ChunkDeflater deflater(1);
  for (int i = 0; i < 3; ++i) {
    DeflatedChunk chunk;
    ASSERT_TRUE(deflater.Deflate(parts[i], i == 2, &chunk).ok());
    EXPECT_EQ(chunk.crc, Crc(parts[i]));
    ASSERT_TRUE(writer.AppendStreamed(chunk).ok());
  }
  ASSERT_TRUE(writer.EndStreamed().ok());
  ASSERT_TRUE(writer.Finish().ok());
  EXPECT_EQ(writer.offset(), zip.size());

  auto archive = ZipArchive::Open(AsBytes(zip), "t.zip");
  ASSERT_TRUE(archive.ok()) << archive.status().ToString();
  ASSERT_EQ(archive->entries().size(), 2u);
  const std::string whole = parts[0] + parts[1] + parts[2];
  const ZipEntry& big = archive->entries()[1];
  EXPECT_EQ(big.name, "big.xml");
  EXPECT_EQ(big.flags & 0x0008, 0x0008);  // sizes in a data descriptor
  EXPECT_EQ(big.uncompressed_size, whole.size());
  EXPECT_EQ(Inflate(std::string_view(zip).substr(big.data_offset, big.compressed_size)), whole);
  // The descriptor after the data: signature, the CRC-32 of the whole member, 4-byte sizes.
  const size_t descriptor = big.data_offset + big.compressed_size;
  EXPECT_EQ(Le32(zip, descriptor), 0x08074b50u);
  EXPECT_EQ(Le32(zip, descriptor + 4), Crc(whole));
  EXPECT_EQ(Le32(zip, descriptor + 12), whole.size());
  // The whole member: CRC and sizes in its local header, no descriptor flag.
  const ZipEntry& small = archive->entries()[0];
  EXPECT_EQ(small.flags, 0);
  EXPECT_EQ(Le32(zip, 14), Crc("<a>hello</a>"));
  auto text = archive->ReadMember(small, 1 << 20);
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(*text, "<a>hello</a>");
}

TEST(ZipStreamWriter, IncompressiblePiecesStillInflateToTheirBytes) {
  std::string noise(300'000, '\0');
  uint64_t x = 88172645463325252ull;  // xorshift: bytes deflate cannot shrink, so stored blocks
  for (char& c : noise) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    c = static_cast<char>(x);
  }
  ChunkDeflater deflater;
  DeflatedChunk first, last;
  ASSERT_TRUE(deflater.Deflate(noise, false, &first).ok());
  ASSERT_TRUE(deflater.Deflate("tail", true, &last).ok());
  EXPECT_EQ(Inflate(first.data + last.data), noise + "tail");
}

// A zip of one streamed member made of `pieces`, the last ending the stream when `finish`.
std::string StreamedZip(const std::vector<std::string>& pieces, bool finish) {
  std::string zip;
  ZipStreamWriter writer([&](std::string_view b) { zip.append(b); return Status::Ok(); }, "t.zip");
  EXPECT_TRUE(writer.BeginStreamed("m.xml", false).ok());
  ChunkDeflater deflater;
  for (size_t i = 0; i < pieces.size(); ++i) {
    DeflatedChunk chunk;
    EXPECT_TRUE(deflater.Deflate(pieces[i], finish && i + 1 == pieces.size(), &chunk).ok());
    EXPECT_TRUE(writer.AppendStreamed(chunk).ok());
  }
  EXPECT_TRUE(writer.EndStreamed().ok());
  EXPECT_TRUE(writer.Finish().ok());
  return zip;
}

TEST(ZipArchiveInflate, StreamWithoutItsFinalBlockEndsEarly) {
  const std::string zip = StreamedZip({std::string(400'000, 'a'), "<b/>"}, false);
  auto archive = ZipArchive::Open(AsBytes(zip), "t.zip");
  ASSERT_TRUE(archive.ok()) << archive.status().ToString();
  EXPECT_STATUS(archive->ReadMember(archive->entries()[0], 1 << 20), Code::kInvalidInput,
                "member 'm.xml': deflate stream ends early");
}

TEST(ZipStreamWriter, StreamedMemberThatMayPass4GbHasZip64LocalExtraAnd8ByteDescriptor) {
  std::string zip;
  ZipStreamWriter writer([&](std::string_view b) { zip.append(b); return Status::Ok(); }, "t.zip");
  ASSERT_TRUE(writer.BeginStreamed("s.xml", true).ok());
  ChunkDeflater deflater;
  DeflatedChunk chunk;
  ASSERT_TRUE(deflater.Deflate("<x/>", true, &chunk).ok());
  ASSERT_TRUE(writer.AppendStreamed(chunk).ok());
  ASSERT_TRUE(writer.EndStreamed().ok());
  ASSERT_TRUE(writer.Finish().ok());
  EXPECT_EQ(Le16(zip, 4), 45);              // version needed: ZIP64
  EXPECT_EQ(Le32(zip, 18), 0xFFFFFFFFu);    // sizes: see the extra
  EXPECT_EQ(Le16(zip, 28), 20);             // extra length
  EXPECT_EQ(Le16(zip, 30 + 5), 0x0001);     // the ZIP64 extra
  const size_t descriptor = 30 + 5 + 20 + chunk.data.size();
  EXPECT_EQ(Le32(zip, descriptor), 0x08074b50u);
  EXPECT_EQ(Le64(zip, descriptor + 8), chunk.data.size());
  EXPECT_EQ(Le64(zip, descriptor + 16), 4u);
  auto archive = ZipArchive::Open(AsBytes(zip), "t.zip");
  ASSERT_TRUE(archive.ok()) << archive.status().ToString();
  EXPECT_EQ(*archive->ReadMember(archive->entries()[0], 100), "<x/>");
}

TEST(ZipStreamWriter, CentralHeaderGetsZip64ExtraOnlyForFieldsAt4Gb) {
  ZipMember below{"a", 8, 1, 0xFFFFFFFE, 0xFFFFFFFE, 0xFFFFFFFE};
  const std::string h1 = EncodeZipCentralHeader(below);
  EXPECT_EQ(h1.size(), 46u + 1);
  EXPECT_EQ(Le32(h1, 42), 0xFFFFFFFEu);

  ZipMember offset_only{"a", 8, 1, 10, 20, 0xFFFFFFFF};  // the marker value itself needs ZIP64
  const std::string h2 = EncodeZipCentralHeader(offset_only);
  ASSERT_EQ(h2.size(), 46u + 1 + 4 + 8);
  EXPECT_EQ(Le16(h2, 6), 45);
  EXPECT_EQ(Le32(h2, 20), 10u);
  EXPECT_EQ(Le32(h2, 42), 0xFFFFFFFFu);
  EXPECT_EQ(Le16(h2, 47), 0x0001);
  EXPECT_EQ(Le16(h2, 49), 8);
  EXPECT_EQ(Le64(h2, 51), 0xFFFFFFFFu);

  ZipMember sizes{"a", 8, 1, uint64_t{5} << 30, uint64_t{6} << 30, 7};
  const std::string h3 = EncodeZipCentralHeader(sizes);
  ASSERT_EQ(h3.size(), 46u + 1 + 4 + 16);
  EXPECT_EQ(Le32(h3, 20), 0xFFFFFFFFu);
  EXPECT_EQ(Le32(h3, 24), 0xFFFFFFFFu);
  EXPECT_EQ(Le32(h3, 42), 7u);
  EXPECT_EQ(Le64(h3, 51), uint64_t{6} << 30);  // uncompressed first, then compressed
  EXPECT_EQ(Le64(h3, 59), uint64_t{5} << 30);
}

TEST(ZipStreamWriter, EndRecordsTurnZip64AtTheFieldLimits) {
  EXPECT_EQ(EncodeZipEnd(0xFFFE, 0xFFFFFFFE, 100).size(), 22u);
  const std::string many = EncodeZipEnd(0xFFFF, 1000, 100);
  ASSERT_EQ(many.size(), 56u + 20 + 22);
  EXPECT_EQ(Le32(many, 0), 0x06064b50u);
  EXPECT_EQ(Le64(many, 24), 0xFFFFu);
  EXPECT_EQ(Le32(many, 56), 0x07064b50u);
  EXPECT_EQ(Le64(many, 64), 1100u);  // the ZIP64 end record follows the directory
  EXPECT_EQ(Le32(many, 76), 0x06054b50u);
  EXPECT_EQ(Le16(many, 76 + 8), 0xFFFF);
  const std::string far = EncodeZipEnd(3, uint64_t{5} << 30, 100);
  ASSERT_EQ(far.size(), 98u);
  EXPECT_EQ(Le64(far, 48), uint64_t{5} << 30);
  EXPECT_EQ(Le32(far, 76 + 16), 0xFFFFFFFFu);
  EXPECT_EQ(Le16(far, 76 + 8), 3);
}

// --- rows -----------------------------------------------------------------------------------------

TEST(XlsxRowXml, CellsRightOfTheirNeighbourOmitTheReference) {
  EXPECT_EQ(RowXml([](XlsxRowXml* x) {
              x->BeginRow(7);
              x->Text(0, "n");
              x->Number(1, 0.1);
              x->Bool(3, true, 2);
              x->Number(4, 1e-05, 2);
              x->EndRow();
            }),
            "<row r=\"7\"><c t=\"inlineStr\"><is><t>n</t></is></c><c><v>0.1</v></c>"
            "<c r=\"D7\" s=\"2\" t=\"b\"><v>1</v></c><c s=\"2\"><v>1e-05</v></c></row>");
}

TEST(XlsxRowXml, TextsAreEscapedAsExcelReadsThem) {
  auto cell = [](std::string_view text) {
    return RowXml([&](XlsxRowXml* x) { x->Text(0, text); });
  };
  EXPECT_EQ(cell("a&b<c>\"d\""), "<c t=\"inlineStr\"><is><t>a&amp;b&lt;c&gt;\"d\"</t></is></c>");
  EXPECT_EQ(cell(std::string("x\x01y\rz", 5)), "<c t=\"inlineStr\"><is><t>x_x0001_y_x000D_z</t></is></c>");
  EXPECT_EQ(cell("tab\there\nnl"), "<c t=\"inlineStr\"><is><t>tab\there\nnl</t></is></c>");
  EXPECT_EQ(cell("_x0041_ and _x12_"), "<c t=\"inlineStr\"><is><t>_x005F_x0041_ and _x12_</t></is></c>");
  EXPECT_EQ(cell(" lead"), "<c t=\"inlineStr\"><is><t xml:space=\"preserve\"> lead</t></is></c>");
  EXPECT_EQ(cell("=HYPERLINK(\"x\")"), "<c t=\"inlineStr\"><is><t>=HYPERLINK(\"x\")</t></is></c>");
}

TEST(XlsxRowXml, ColumnNamesFollowExcel) {
  EXPECT_EQ(XlsxColumnName(0), "A");
  EXPECT_EQ(XlsxColumnName(25), "Z");
  EXPECT_EQ(XlsxColumnName(26), "AA");
  EXPECT_EQ(XlsxColumnName(701), "ZZ");
  EXPECT_EQ(XlsxColumnName(16383), "XFD");
}

// --- workbook -------------------------------------------------------------------------------------

TEST(XlsxStreamWriter, ManyChunkSheetsReadBackCellByCell) {
  constexpr uint64_t kRows = 40'000;  // 3 columns: 4 chunks of 10,922 rows
  std::string file;
  XlsxStreamWriter writer([&](std::string_view b) { file.append(b); return Status::Ok(); }, "t.xlsx");
  ASSERT_TRUE(writer.Begin({"First", "Sheet & <2>"}).ok());
  for (int s = 0; s < 2; ++s) {
    XlsxSheetLayout layout{s == 0 ? "First" : "Sheet & <2>", {"name", "rank0", "rank1"}, {10, 8, 8}, kRows, 1000};
    auto rows = [s](uint64_t first, uint64_t end, XlsxRowXml* xml) {
      for (uint64_t i = first; i < end; ++i) {
        xml->BeginRow(i + 2);
        xml->Text(0, "row" + std::to_string(i));
        xml->Number(1, static_cast<double>(i) / 8 + s);
        if (i % 3 != 0) xml->Text(2, "t&" + std::to_string(i), kXlsxStyleOutlier);
        xml->EndRow();
      }
    };
    ASSERT_TRUE(writer.WriteSheet(layout, rows).ok());
  }
  ASSERT_TRUE(writer.Finish().ok());

  auto reader = XlsxReader::Open(AsBytes(file), "t.xlsx");
  ASSERT_TRUE(reader.ok()) << reader.status().ToString();
  EXPECT_EQ(reader->sheet_names(), (std::vector<std::string>{"First", "Sheet & <2>"}));
  auto rows = ReadXlsxSheetRows(AsBytes(file), "t.xlsx", 1);
  ASSERT_TRUE(rows.ok()) << rows.status().ToString();
  ASSERT_EQ(rows->size(), kRows + 1);
  EXPECT_EQ((*rows)[0][1].text, "rank0");
  for (uint64_t i = 0; i < kRows; i += 997) {
    const auto& row = (*rows)[i + 1];
    EXPECT_EQ(row[0].text, "row" + std::to_string(i));
    EXPECT_EQ(row[1].number, static_cast<double>(i) / 8 + 1);
    if (i % 3 != 0) {
      EXPECT_EQ(row[2].text, "t&" + std::to_string(i));
    } else {
      EXPECT_TRUE(row.size() < 3 || row[2].type == XlsxCell::Type::kEmpty);
    }
  }
  auto archive = ZipArchive::Open(AsBytes(file), "t.xlsx");
  ASSERT_TRUE(archive.ok());
  auto sheet = archive->ReadMember(*archive->Find("xl/worksheets/sheet1.xml"), 1u << 30);
  ASSERT_TRUE(sheet.ok());
  EXPECT_NE(sheet->find("<dimension ref=\"A1:C40001\"/>"), std::string::npos);
  EXPECT_NE(sheet->find("<pane ySplit=\"1\" topLeftCell=\"A2\" activePane=\"bottomLeft\" state=\"frozen\"/>"),
            std::string::npos);
  EXPECT_NE(sheet->find("<col min=\"1\" max=\"1\" width=\"10.7109375\" customWidth=\"1\"/>"), std::string::npos);
  EXPECT_TRUE(sheet->ends_with("</sheetData><pageMargins left=\"0.7\" right=\"0.7\" top=\"0.75\" bottom=\"0.75\" "
                               "header=\"0.3\" footer=\"0.3\"/></worksheet>"));
}

TEST(XlsxStreamWriter, StoredWidthMatchesLibxlsxwriter) {
  // (uint16)(((uint16)(w·7 + 0.5) + 5) / 7 · 256) / 256, worked by hand.
  EXPECT_EQ(XlsxStreamWriter::StoredWidth(10), 10.7109375);
  EXPECT_EQ(XlsxStreamWriter::StoredWidth(42), 42.7109375);
  EXPECT_EQ(XlsxStreamWriter::StoredWidth(8.43), 9.140625);
}

TEST(XlsxStreamWriter, SheetNamesExcelRefusesAreErrors) {
  std::string file;
  auto sink = [&](std::string_view b) { file.append(b); return Status::Ok(); };
  EXPECT_STATUS(XlsxStreamWriter(sink, "t.xlsx").Begin({"a:b"}), Code::kInvalidInput, "'a:b' cannot name a sheet");
  EXPECT_STATUS(XlsxStreamWriter(sink, "t.xlsx").Begin({std::string(32, 'x')}), Code::kInvalidInput,
                "cannot name a sheet");
  EXPECT_STATUS(XlsxStreamWriter(sink, "t.xlsx").Begin({"Max diff", "MAX DIFF"}), Code::kInvalidInput,
                "sheet name 'MAX DIFF' is used twice");
  EXPECT_STATUS(XlsxStreamWriter(sink, "t.xlsx").Begin({""}), Code::kInvalidInput, "cannot name a sheet");
}

TEST(XlsxStreamWriter, SinkErrorStopsTheSheet) {
  size_t calls = 0;
  XlsxStreamWriter writer(
      [&](std::string_view) { return ++calls > 12 ? Status::IOError("t.xlsx", "disk full") : Status::Ok(); }, "t.xlsx");
  ASSERT_TRUE(writer.Begin({"s"}).ok());
  XlsxSheetLayout layout{"s", {"a"}, {}, 200'000, 0};
  auto rows = [](uint64_t first, uint64_t end, XlsxRowXml* xml) {
    for (uint64_t i = first; i < end; ++i) {
      xml->BeginRow(i + 2);
      xml->Number(0, static_cast<double>(i));
      xml->EndRow();
    }
  };
  EXPECT_STATUS(writer.WriteSheet(layout, rows), Code::kIOError, "disk full");
}

}  // namespace
}  // namespace msprobe::compare
