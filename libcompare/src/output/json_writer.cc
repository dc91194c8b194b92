#include "msprobe/compare/output/json_writer.h"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cmath>

#include "msprobe/dump/text/python_format.h"
#include "msprobe/dump/io/atomic_file.h"
#include "table/rendered_rows_internal.h"

namespace msprobe::compare {
namespace {

constexpr size_t kFlushBytes = 1 << 20;
constexpr size_t kJsonBlockRows = 4096;

using JsonWriter = rapidjson::Writer<rapidjson::StringBuffer>;

void WriteCell(JsonWriter* w, const Cell& cell) {
  switch (cell.kind()) {
    case Cell::Kind::kText: w->String(cell.text().data(), static_cast<rapidjson::SizeType>(cell.text().size())); return;
    case Cell::Kind::kInt: w->Int64(cell.integer()); return;
    case Cell::Kind::kBool: w->Bool(cell.boolean()); return;
    case Cell::Kind::kFloat: break;
  }
  const std::string repr = PythonFloatRepr(cell.number());
  if (std::isfinite(cell.number())) {
    // repr() digits ("1e-05", "3.0") are valid JSON numbers and match the CSV exactly.
    w->RawValue(repr.data(), repr.size(), rapidjson::kNumberType);
  } else {
    w->String(repr.data(), static_cast<rapidjson::SizeType>(repr.size()));
  }
}

// Rows [range.first, range.second) of `table` as JSON arrays, each one's size after it.
void RenderJsonRows(const ResultTable& table, internal::BlockRange range, RenderedRows* block) {
  rapidjson::StringBuffer sb;
  JsonWriter w(sb);
  for (size_t row = range.first; row < range.second; ++row) {
    sb.Clear();
    w.Reset(sb);
    w.StartArray();
    for (const Cell& cell : table.Cells(table.rows[row])) WriteCell(&w, cell);
    w.EndArray();
    block->bytes.append(sb.GetString(), sb.GetSize());
    block->row_sizes.push_back(static_cast<uint32_t>(sb.GetSize()));
  }
}

}  // namespace

const char* DumpModeName(CompareMode mode) {
  switch (mode) {
    case CompareMode::kTensor: return "ALL";
    case CompareMode::kSummary: return "SUMMARY";
    case CompareMode::kMd5: return "MD5";
  }
  return "SUMMARY";
}

Result<JsonResultStream> JsonResultStream::Open(const std::string& path, CompareMode mode,
                                                const std::vector<std::string>& header) {
  MSP_ASSIGN_OR_RETURN(AtomicFile file, AtomicFile::Create(path));
  JsonResultStream stream(std::move(file));
  rapidjson::StringBuffer sb;
  JsonWriter w(sb);
  std::string out = std::string("{\"mode\": \"") + DumpModeName(mode) + "\",\n \"header\": ";
  w.StartArray();
  for (const std::string& name : header) w.String(name.data(), static_cast<rapidjson::SizeType>(name.size()));
  w.EndArray();
  out.append(sb.GetString(), sb.GetSize());
  out += ",\n \"rows\": [";
  MSP_RETURN_IF_ERROR(stream.file_.Write(out));
  return stream;
}

Status JsonResultStream::Append(const ResultTable& table) {
  return internal::RenderRowsInOrder(
      0, table.rows.size(), kJsonBlockRows,
      [&](internal::BlockRange range, RenderedRows* block) { RenderJsonRows(table, range, block); },
      [&](const RenderedRows& block) { return AppendRendered(block); });
}

void JsonResultStream::Render(const ResultTable& table, RenderedRows* into) {
  internal::RenderRows(
      table.rows.size(), kJsonBlockRows,
      [&](internal::BlockRange range, RenderedRows* block) { RenderJsonRows(table, range, block); }, into);
}

Status JsonResultStream::AppendRendered(const RenderedRows& rows) {
  std::string out;
  size_t at = 0;
  for (const uint32_t size : rows.row_sizes) {
    out += rows_++ ? ",\n  " : "\n  ";
    out.append(rows.bytes, at, size);
    at += size;
    if (out.size() >= kFlushBytes) {
      MSP_RETURN_IF_ERROR(file_.Write(out));
      out.clear();
    }
  }
  return file_.Write(out);
}

Status JsonResultStream::Commit() && {
  MSP_RETURN_IF_ERROR(file_.Write(rows_ == 0 ? "]}\n" : "\n ]}\n"));
  return file_.Commit();
}

Status WriteJson(const std::string& path, const ResultTable& table) {
  MSP_ASSIGN_OR_RETURN(JsonResultStream stream, JsonResultStream::Open(path, table.mode, table.Header()));
  MSP_RETURN_IF_ERROR(stream.Append(table));
  return std::move(stream).Commit();
}

}  // namespace msprobe::compare
