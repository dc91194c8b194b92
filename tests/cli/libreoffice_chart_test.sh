#!/usr/bin/env bash
# The summary sheet's chart as LibreOffice draws it: the compare workbook (tensor and statistics mode)
# is printed to PDF one page per sheet, the summary's page rendered at 50 dpi, and the series line must
# show: at least 200 pixels near its colour #4472C4 (an undrawn chart leaves only axes and labels).
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/libreoffice_lib.sh"
command -v pdftoppm >/dev/null || { echo "skipped: pdftoppm (poppler-utils) not installed"; exit 77; }
pdf_filter='pdf:calc_pdf_Export:{"SinglePageSheets":{"type":"boolean","value":"true"}}'

# series_pixels IMAGE.ppm: how many pixels lie within ±40 per channel of #4472C4 (68, 114, 196), the
# tolerance taking the anti-aliased edges of a thin line, and whose green exceeds red by at least half
# the colour's 46: without that, the anti-aliased navy of the "First error" link (grey-blues with
# red = green, e.g. 87 87 171) counted 96 pixels on a page without any line.
series_pixels() {
  local magic width height maxval
  { read -r magic; read -r width height; read -r maxval; } <"$1"
  [ "$magic $maxval" = "P6 255" ] || fail "$1: not an 8-bit binary PPM"
  tail -c $((width * height * 3)) "$1" | od -An -v -tu1 -w3 |
    awk 'function near(v, c) { return v >= c - 40 && v <= c + 40 }
         near($1, 68) && near($2, 114) && near($3, 196) && $2 - $1 >= 23 { n++ } END { print n + 0 }'
}

for kind in tensor statistics; do
  compare_workbooks "$kind" "$TMP/$kind"
  book=$(ls "$TMP/$kind"/compare_result_rank0_*.xlsx)
  lo_convert "$pdf_filter" "$TMP/pdf_$kind" "$book"
  pdf=$TMP/pdf_$kind/$(basename "$book" .xlsx).pdf
  # one page per sheet, in sheet order
  page=$(sheet_names "$book" | grep -nx summary | cut -d: -f1)
  [ -n "$page" ] || fail "$book has no summary sheet: $(sheet_names "$book")"
  pages=$(pdfinfo "$pdf" | awk '/^Pages:/ { print $2 }')
  [ "$pages" -eq "$(sheet_names "$book" | wc -l)" ] || fail "$pdf has $pages pages, not one per sheet"
  pdftoppm -r 50 -f "$page" -l "$page" -singlefile "$pdf" "$TMP/summary_$kind" || fail "pdftoppm $pdf"
  pixels=$(series_pixels "$TMP/summary_$kind.ppm")
  echo "$kind: $pixels pixels near #4472C4 on the summary page (page $page of $pages)"
  checks=$((checks + 1))
  # both kinds are measured before failing, so a failure reports each one's count
  [ "$pixels" -ge 200 ] || undrawn+=" $kind ($pixels pixels)"
done
[ -z "${undrawn:-}" ] || fail "the summary chart's line is not drawn (want >= 200 pixels near #4472C4):$undrawn"
finish
