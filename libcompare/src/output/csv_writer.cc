#include "msprobe/compare/output/csv_writer.h"


#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>

#include "msprobe/dump/text/csv_quote.h"
#include "msprobe/dump/text/python_format.h"
#include "msprobe/dump/text/python_parse.h"
#include "msprobe/dump/io/atomic_file.h"
#include "table/rendered_rows_internal.h"

namespace msprobe::compare {
namespace {

// G3 CSV_BLACK_LIST's leading characters: + - = % @ and their full-width forms (U+FF0B, U+FF0D,
// U+FF1D, U+FF05, U+FF20, each EF BC xx in UTF-8).
bool StartsWithFormulaChar(std::string_view s) {
  if (s.empty()) return false;
  switch (s[0]) {
    case '+': case '-': case '=': case '%': case '@': return true;
    default: break;
  }
  if (s.size() < 3 || static_cast<unsigned char>(s[0]) != 0xEF || static_cast<unsigned char>(s[1]) != 0xBC) {
    return false;
  }
  switch (static_cast<unsigned char>(s[2])) {
    case 0x8B: case 0x8D: case 0x9D: case 0x85: case 0xA0: return true;
    default: return false;
  }
}

bool MatchesBlackList(std::string_view s) {
  if (StartsWithFormulaChar(s)) return true;
  for (size_t pos = s.find(';'); pos != std::string_view::npos; pos = s.find(';', pos + 1)) {
    if (StartsWithFormulaChar(s.substr(pos + 1))) return true;
  }
  return false;
}

std::string PartPath(const std::string& path, size_t part) {
  const std::filesystem::path p(path);
  std::filesystem::path name = p.stem();
  name += "_part_" + std::to_string(part);
  name += p.extension();
  return (p.parent_path() / name).string();
}

// Appends a row's cells to a block, comma-separated.
class CsvRowFormatter : public ResultCellVisitor {
 public:
  explicit CsvRowFormatter(std::string* out) : out_(out) {}
  void Text(std::string_view text) override {
    Separate();
    AppendCsvText(out_, text);
  }
  void Value(const Cell& cell) override {
    Separate();
    AppendCsvField(out_, cell);
  }
  void ListText(std::string_view text) override {
    Separate();
    AppendCsvQuoted(out_, text);
  }
  void EndRow() {
    *out_ += '\n';
    first_ = true;
  }

 private:
  void Separate() {
    if (!first_) *out_ += ',';
    first_ = false;
  }
  std::string* out_;
  bool first_ = true;
};

// Rows [range.first, range.second) of `table` as csv lines, each line's size after it.
void RenderCsvRows(const ResultTable& table, internal::BlockRange range, RenderedRows* block) {
  CsvRowFormatter format(&block->bytes);
  for (size_t row_idx = range.first; row_idx < range.second; ++row_idx) {
    const size_t before = block->bytes.size();
    table.VisitCells(table.rows[row_idx], &format);
    format.EndRow();
    block->row_sizes.push_back(static_cast<uint32_t>(block->bytes.size() - before));
  }
}

// Blocks of csv lines: 1024 rows, and a streamed pair's batches can be as small as 4096 rows, still
// several blocks.
constexpr size_t kCsvBlockRows = 1024;

// Formats rows [begin, end) in blocks on all cores and writes the blocks in order.
Status WriteRows(const ResultTable& table, size_t begin, size_t end, AtomicFile* file) {
  return internal::RenderRowsInOrder(
      begin, end, kCsvBlockRows,
      [&](internal::BlockRange range, RenderedRows* block) { RenderCsvRows(table, range, block); },
      [&](const RenderedRows& block) { return file->Write(block.bytes); });
}

}  // namespace

// The cheap pattern test first: most texts start with neither a formula character nor hold a ';'.
// G3 lets texts through whose ';'-separated pieces float() all takes ("-1.00 or +1.00 should be
// considered as digit numbers"; --consistent_check's joined means are such texts).
bool LooksLikeFormula(std::string_view text) {
  if (!MatchesBlackList(text)) return false;
  for (size_t start = 0;;) {
    const size_t semi = text.find(';', start);
    if (!PythonFloat(text.substr(start, semi == std::string_view::npos ? std::string_view::npos : semi - start))) {
      return true;
    }
    if (semi == std::string_view::npos) return false;
    start = semi + 1;
  }
}

void AppendCsvField(std::string* out, const Cell& cell) {
  switch (cell.kind()) {
    case Cell::Kind::kFloat: {
      const double v = cell.number();
      // G3 replaces float ±inf by " inf"/" -inf" so spreadsheets do not show #NAME? (docs/compare.md §4.1);
      // pandas writes a float NaN as its na_rep, the empty string.
      if (std::isnan(v)) return;
      if (std::isinf(v)) {
        *out += v > 0 ? " inf" : " -inf";
        return;
      }
      char repr[48];
      out->append(repr, AppendPythonFloatRepr(repr, v));
      return;
    }
    case Cell::Kind::kInt: *out += std::to_string(cell.integer()); return;
    case Cell::Kind::kBool: *out += PythonBoolStr(cell.boolean()); return;
    case Cell::Kind::kText: AppendCsvText(out, cell.text()); return;
  }
}

void AppendCsvText(std::string* out, std::string_view text) {
  // G3 aborts the whole write on such a value (docs/compare.md §1.4); we keep the row and defuse the
  // text the way spreadsheets expect, with a leading apostrophe.
  if (!LooksLikeFormula(text)) {
    AppendCsvQuoted(out, text);
    return;
  }
  std::string defused(1, '\'');
  defused.append(text);
  AppendCsvQuoted(out, defused);
}

std::string CsvField(const Cell& cell) {
  std::string out;
  AppendCsvField(&out, cell);
  return out;
}

Result<CsvResultStream> CsvResultStream::Open(const std::string& path, const std::vector<std::string>& header,
                                              size_t max_rows_per_file) {
  if (max_rows_per_file == 0) return Status::Internal(path, "csv split size must be positive");
  CsvResultStream stream(path, max_rows_per_file);
  for (size_t i = 0; i < header.size(); ++i) {
    if (i) stream.header_line_ += ',';
    AppendCsvQuoted(&stream.header_line_, header[i]);
  }
  stream.header_line_ += '\n';
  MSP_RETURN_IF_ERROR(stream.NextFile());
  return stream;
}

Status CsvResultStream::NextFile() {
  // Every file starts under its part name; a lone file is renamed to `path` at Commit.
  MSP_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::Create(PartPath(path_, files_.size() + 1)));
  MSP_RETURN_IF_ERROR(file.Write(header_line_));
  files_.push_back(std::move(file));
  rows_in_file_ = 0;
  return Status::Ok();
}

Status CsvResultStream::InFiles(size_t rows, const std::function<Status(size_t begin, size_t end)>& write) {
  for (size_t begin = 0; begin < rows;) {
    if (rows_in_file_ == max_rows_per_file_) MSP_RETURN_IF_ERROR(NextFile());
    const size_t end = std::min(rows, begin + (max_rows_per_file_ - rows_in_file_));
    MSP_RETURN_IF_ERROR(write(begin, end));
    rows_in_file_ += end - begin;
    begin = end;
  }
  return Status::Ok();
}

Status CsvResultStream::Append(const ResultTable& table) {
  return InFiles(table.rows.size(),
                 [&](size_t begin, size_t end) { return WriteRows(table, begin, end, &files_.back()); });
}

void CsvResultStream::Render(const ResultTable& table, RenderedRows* into) {
  internal::RenderRows(
      table.rows.size(), kCsvBlockRows,
      [&](internal::BlockRange range, RenderedRows* block) { RenderCsvRows(table, range, block); }, into);
}

Status CsvResultStream::AppendRendered(const RenderedRows& rows) {
  size_t at = 0;  // the next row's first byte
  return InFiles(rows.rows(), [&](size_t begin, size_t end) {
    size_t bytes = 0;
    for (size_t row = begin; row < end; ++row) bytes += rows.row_sizes[row];
    at += bytes;
    return files_.back().Write(std::string_view(rows.bytes).substr(at - bytes, bytes));
  });
}

Result<std::vector<std::string>> CsvResultStream::Commit() && {
  if (files_.size() == 1) files_.front().Rename(path_);
  std::vector<std::string> paths;
  for (const AtomicFile& file : files_) paths.push_back(file.path());
  // Commit only when every part is complete; undo the parts already renamed if a later one fails.
  for (size_t i = 0; i < files_.size(); ++i) {
    const Status st = files_[i].Commit();
    if (!st.ok()) {
      for (size_t done = 0; done < i; ++done) std::remove(paths[done].c_str());
      return st;
    }
  }
  return paths;
}

Result<std::vector<std::string>> WriteCsv(const std::string& path, const ResultTable& table,
                                          size_t max_rows_per_file) {
  MSP_ASSIGN_OR_RETURN(CsvResultStream stream, CsvResultStream::Open(path, table.Header(), max_rows_per_file));
  MSP_RETURN_IF_ERROR(stream.Append(table));
  return std::move(stream).Commit();
}

Status WriteSmallCsv(const std::string& path, const std::vector<std::string>& header, size_t rows,
                     const std::function<std::vector<Cell>(size_t)>& row) {
  std::string text;
  for (size_t i = 0; i < header.size(); ++i) {
    if (i > 0) text += ',';
    AppendCsvText(&text, header[i]);
  }
  text += '\n';
  for (size_t r = 0; r < rows; ++r) {
    const std::vector<Cell> cells = row(r);
    for (size_t i = 0; i < cells.size(); ++i) {
      if (i > 0) text += ',';
      AppendCsvField(&text, cells[i]);
    }
    text += '\n';
  }
  return WriteFileAtomically(path, text);
}

}  // namespace msprobe::compare
