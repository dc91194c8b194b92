#!/usr/bin/env bash
# Installs what the tests that open our workbooks in a real spreadsheet application need (ctest -L
# client): LibreOffice Calc without a GUI, and poppler-utils (pdftoppm, pdfinfo) to render its PDF.
# Run by CI, not by scripts/deps.sh: the README's test command skips those tests rather than install
# LibreOffice. Without recommends they take about 260 MB (85 MB to download; no Java, no extra fonts).
set -euo pipefail
"$(dirname "$0")/apt_install.sh" --no-install-recommends libreoffice-calc-nogui poppler-utils
