#include "msprobe/compare/xlsx/xlsx_reader.h"

#include <fmt/format.h>

#include <charconv>
#include <cstring>
#include <optional>
#include <unordered_map>

#include "msprobe/dump/text/xml_scanner.h"
#include "xlsx/xlsx_common_internal.h"

namespace msprobe::compare {
namespace {


constexpr uint32_t kMaxRows = 1'048'576;  // Excel's grid
constexpr uint32_t kMaxColumns = 16'384;
constexpr size_t kMaxPendingToken = 64u << 20;  // one tag or text run longer than this is refused
constexpr std::string_view kWorkbookPart = "xl/workbook.xml";
constexpr std::string_view kWorkbookRels = "xl/_rels/workbook.xml.rels";

// Runs `on_token` over every token of a whole (small) part.
template <class F>
Status ScanPart(std::string_view xml, const std::string& source, F&& on_token) {
  size_t pos = 0;
  while (pos < xml.size()) {
    MSP_ASSIGN_OR_RETURN(std::optional<XmlToken> token, NextXmlToken(xml, &pos, true, source, 0));
    if (!token) break;
    MSP_RETURN_IF_ERROR(on_token(*token));
  }
  return Status::Ok();
}

// "B12" → column 1 (0-based) and row 12; nullopt when malformed or outside Excel's grid.
std::optional<std::pair<uint32_t, uint32_t>> ParseCellRef(std::string_view ref) {
  uint32_t col = 0;
  size_t i = 0;
  while (i < ref.size() && ref[i] >= 'A' && ref[i] <= 'Z' && i < 3) col = col * 26 + (ref[i++] - 'A' + 1);
  if (i == 0 || col > kMaxColumns) return std::nullopt;
  if (i == ref.size() || ref.size() - i > 7) return std::nullopt;  // Excel's last row has 7 digits
  uint32_t row = 0;
  for (; i < ref.size(); ++i) {
    if (ref[i] < '0' || ref[i] > '9') return std::nullopt;
    row = row * 10 + static_cast<uint32_t>(ref[i] - '0');
  }
  if (row == 0 || row > kMaxRows) return std::nullopt;
  return std::make_pair(col - 1, row);
}

// Streams a worksheet's <sheetData> into rows of cells. A state machine over tokens: no recursion,
// and unknown elements are skipped by counting their depth. The per-token steps return false on an
// error (kept in error_) rather than a Status: a sheet has hundreds of millions of tokens.
class SheetParser {
 public:
  SheetParser(const std::string& source, const std::vector<std::string>& shared, const XlsxReader::RowVisitor& visit,
              const std::vector<bool>* decode)
      : source_(source), shared_(shared), visit_(visit), decode_(decode) {}

  // Consumes the complete tokens of buf[*pos..]; `final` when no more input follows.
  Status Feed(std::string_view buf, size_t* pos, uint64_t base, bool final) {
    XmlToken token;
    while (state_ != State::kDone) {
      if (state_ == State::kRow) {
        const FastBody fast = FastCellStart(buf, pos, base);
        if (fast == FastBody::kError) return std::move(error_);
        if (fast == FastBody::kDone) continue;
      }
      if (state_ == State::kCell && try_fast_body_) {
        try_fast_body_ = false;
        const FastBody fast = FastCellBody(buf, pos, base);
        if (fast == FastBody::kError) return std::move(error_);
        if (fast == FastBody::kDone) continue;
      }
      const size_t at = *pos;
      const XmlScan scan = ScanXmlToken(buf, pos, final, source_, base, &token, &error_);
      if (scan == XmlScan::kNeedMore) break;
      if (scan == XmlScan::kError || !OnToken(token, base + at)) return std::move(error_);
    }
    if (final && state_ != State::kDone && state_ != State::kPrologue) {
      return Status::InvalidInput(source_, "worksheet ends inside <sheetData>");
    }
    return Status::Ok();
  }

 private:
  enum class State : uint8_t { kPrologue, kSheetData, kRow, kCell, kDone };
  // The t attribute of a cell; kOther keeps its text in other_type_ for the message.
  enum class CellType : uint8_t { kShared, kInline, kFormulaText, kDate, kBool, kError, kNumber, kOther };

  bool Fail(uint64_t offset, const std::string& what) {
    error_ = Status::InvalidInput(source_, fmt::format("worksheet offset {}: {}", offset, what));
    return false;
  }

  bool OnToken(const XmlToken& t, uint64_t offset) {
    using K = XmlToken::Kind;
    switch (state_) {
      case State::kPrologue:
        if (t.name == "sheetData" && t.kind == K::kStart) state_ = State::kSheetData;
        if (t.name == "sheetData" && t.kind == K::kEmpty) state_ = State::kDone;
        return true;
      case State::kSheetData:
        if (t.kind == K::kEnd && t.name == "sheetData") {
          state_ = State::kDone;
        } else if (t.name == "row" && (t.kind == K::kStart || t.kind == K::kEmpty)) {
          if (!StartRow(t, offset)) return false;
          if (t.kind == K::kEmpty) return EndRow();
          state_ = State::kRow;
        }
        return true;
      case State::kRow:
        if (t.kind == K::kEnd && t.name == "row") return EndRow();
        if (t.name == "c" && (t.kind == K::kStart || t.kind == K::kEmpty)) {
          std::optional<std::string_view> r, type;
          XmlAttrPair(t.attrs, "r", "t", &r, &type);
          return StartCell(r, type, t.kind == K::kEmpty, offset);
        }
        return true;
      case State::kCell:
        return OnCellToken(t, offset);
      case State::kDone:
        return true;
    }
    return true;
  }

  bool StartRow(const XmlToken& t, uint64_t offset) {
    if (auto r = XmlAttr(t.attrs, "r")) {
      uint32_t row = 0;
      const auto [end, ec] = std::from_chars(r->data(), r->data() + r->size(), row);
      if (ec != std::errc() || end != r->data() + r->size() || row == 0 || row > kMaxRows) {
        return Fail(offset, fmt::format("row number '{}' is not between 1 and {}", *r, kMaxRows));
      }
      row_number_ = row;
    } else {
      if (row_number_ >= kMaxRows) return Fail(offset, fmt::format("more than {} rows", kMaxRows));
      ++row_number_;
    }
    for (size_t i = 0; i < used_; ++i) {
      cells_[i].type = XlsxCell::Type::kEmpty;
      cells_[i].text.clear();
      cells_[i].number = 0;
    }
    used_ = 0;
    next_column_ = 0;
    return true;
  }

  bool EndRow() {
    state_ = State::kSheetData;
    error_ = visit_(row_number_, std::span<const XlsxCell>(cells_.data(), used_));
    return error_.ok();
  }

  static CellType ParseCellType(std::string_view t) {
    if (t.size() == 1) {  // the common case first, by character rather than by string
      switch (t[0]) {
        case 's': return CellType::kShared;
        case 'n': return CellType::kNumber;
        case 'b': return CellType::kBool;
        case 'e': return CellType::kError;
        case 'd': return CellType::kDate;
        default: return CellType::kOther;
      }
    }
    if (t == "inlineStr") return CellType::kInline;
    if (t == "str") return CellType::kFormulaText;
    return CellType::kOther;
  }

  // A cell's start tag with its r and t attributes, if present; `empty` for "<c .../>", which also
  // ends the cell. Otherwise the cell's body comes next.
  bool StartCell(std::optional<std::string_view> r, std::optional<std::string_view> type, bool empty,
                 uint64_t offset) {
    uint32_t column = next_column_;
    if (r) {
      const auto ref = ParseCellRef(*r);
      if (!ref) return Fail(offset, fmt::format("cell reference '{}' is malformed or outside the sheet", *r));
      column = ref->first;
    }
    if (column >= kMaxColumns) return Fail(offset, fmt::format("more than {} columns", kMaxColumns));
    const std::string_view type_text = type.value_or("n");
    cell_type_ = ParseCellType(type_text);
    if (cell_type_ == CellType::kOther) other_type_.assign(type_text);
    column_ = column;
    next_column_ = column + 1;
    // Only a text's value can go unread: the other kinds are still checked as they are read.
    skip_ = decode_ != nullptr && (column >= decode_->size() || !(*decode_)[column]) &&
            (cell_type_ == CellType::kInline || cell_type_ == CellType::kFormulaText || cell_type_ == CellType::kDate ||
             cell_type_ == CellType::kError);
    value_.clear();
    has_value_ = nonempty_ = false;
    skip_depth_ = 0;
    in_value_ = in_inline_text_ = in_phonetic_ = false;
    if (empty) return EndCell(offset);
    state_ = State::kCell;
    try_fast_body_ = true;
    return true;
  }

  enum class FastBody : uint8_t { kNoMatch, kDone, kError };

  // A cell's start tag in the form writers use, "<c" then attributes as ` name="value"` (single
  // spaces, no prefixes), then ">" or "/>", read in one step: the same effect as ScanXmlToken and
  // the kRow case of OnToken. Anything else, or a tag cut by the chunk's end, is kNoMatch with
  // nothing consumed. A sheet holds a cell tag for every value, so this is the reader's hot loop.
  FastBody FastCellStart(std::string_view buf, size_t* pos, uint64_t base) {
    const char* const start = buf.data() + *pos;
    const char* const end = buf.data() + buf.size();
    if (end - start < 3 || start[0] != '<' || start[1] != 'c') return FastBody::kNoMatch;
    std::optional<std::string_view> r, type;
    const char* p = start + 2;
    while (p < end && *p == ' ') {
      const char* const name = ++p;
      while (p < end && *p != '=' && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r' && *p != '>' && *p != ':' &&
             *p != '/') {
        ++p;
      }
      if (end - p < 2 || p == name || p[0] != '=' || (p[1] != '"' && p[1] != '\'')) return FastBody::kNoMatch;
      const std::string_view attr(name, static_cast<size_t>(p - name));
      const char quote = p[1];
      const char* const value = p + 2;
      p = value;
      while (p < end && *p != quote) ++p;  // values are a few characters: no memchr call
      if (p == end) return FastBody::kNoMatch;
      const std::string_view text(value, static_cast<size_t>(p - value));
      if (attr == "r" && !r) r = text;
      if (attr == "t" && !type) type = text;
      ++p;
    }
    const bool empty = end - p >= 2 && p[0] == '/' && p[1] == '>';
    if (!empty && (p == end || *p != '>')) return FastBody::kNoMatch;
    const uint64_t offset = base + *pos;
    *pos = static_cast<size_t>(p - buf.data()) + (empty ? 2 : 1);
    return StartCell(r, type, empty, offset) ? FastBody::kDone : FastBody::kError;
  }

  // The body of a cell in the form every writer we know uses, "<v>TEXT</v></c>" or, for an inline
  // string, "<is><t>TEXT</t></is></c>", consumed in one step: the same effect as its six or eight
  // tokens through OnCellToken, without scanning them one by one. Anything else (attributes,
  // rich text, a formula, a body cut by the chunk's end) is kNoMatch, nothing consumed, and the
  // token path reads it.
  FastBody FastCellBody(std::string_view buf, size_t* pos, uint64_t base) {
    return cell_type_ == CellType::kInline ? FastCellBodyIn<true>(buf, pos, base) : FastCellBodyIn<false>(buf, pos, base);
  }

  // The markup as constants, so the comparisons compile to a few loads instead of memcmp calls.
  template <bool kInlineText>
  FastBody FastCellBodyIn(std::string_view buf, size_t* pos, uint64_t base) {
    constexpr std::string_view open = kInlineText ? "<is><t>" : "<v>";
    constexpr std::string_view close = kInlineText ? "</t></is></c>" : "</v></c>";
    const std::string_view rest = buf.substr(*pos);
    if (rest.size() < open.size() || std::memcmp(rest.data(), open.data(), open.size()) != 0) return FastBody::kNoMatch;
    const void* lt = std::memchr(rest.data() + open.size(), '<', rest.size() - open.size());
    if (lt == nullptr) return FastBody::kNoMatch;
    const size_t text_end = static_cast<size_t>(static_cast<const char*>(lt) - rest.data());
    if (rest.size() - text_end < close.size() || std::memcmp(rest.data() + text_end, close.data(), close.size()) != 0) {
      return FastBody::kNoMatch;
    }
    (kInlineText ? in_inline_text_ : in_value_) = true;
    has_value_ = true;
    XmlToken text;
    text.text = rest.substr(open.size(), text_end - open.size());
    if (!text.text.empty() && !OnCellToken(text, base + *pos + open.size())) return FastBody::kError;
    in_inline_text_ = in_value_ = false;
    *pos += text_end + close.size();
    return EndCell(base + *pos - 4) ? FastBody::kDone : FastBody::kError;  // the offset of "</c>"
  }

  bool OnCellToken(const XmlToken& t, uint64_t offset) {
    using K = XmlToken::Kind;
    if (t.kind == K::kText) {
      if (skip_depth_ == 0 && (in_value_ || (in_inline_text_ && !in_phonetic_))) {
        has_value_ = true;
        if (skip_) {
          // Not kept, but an empty text still differs from a non-empty one, and a bad entity
          // is still an error (decoding never turns a non-empty raw text into an empty one).
          nonempty_ |= !t.text.empty();
          if (!t.cdata && std::memchr(t.text.data(), '&', t.text.size()) != nullptr) {
            scratch_.clear();
            error_ = AppendXmlText(t.text, &scratch_, source_);
            if (!error_.ok()) return false;
          }
        } else if (t.cdata) {
          value_.append(t.text);
        } else {
          error_ = AppendXmlText(t.text, &value_, source_);
          if (!error_.ok()) return false;
        }
      }
      return true;
    }
    if (skip_depth_ > 0) {  // inside an element we do not read (<f>, <extLst>, …)
      if (t.kind == K::kStart) ++skip_depth_;
      if (t.kind == K::kEnd) --skip_depth_;
      return true;
    }
    if (t.kind == K::kEnd) {
      if (t.name == "c") return EndCell(offset);
      if (t.name == "v") in_value_ = false;
      if (t.name == "t") in_inline_text_ = false;
      if (t.name == "rPh") in_phonetic_ = false;
      return true;
    }
    if (t.kind == K::kEmpty) {
      if (t.name == "v" || t.name == "t") has_value_ = true;  // an empty value is the empty text
      return true;
    }
    if (t.name == "v") {
      in_value_ = true;
      has_value_ = true;
    } else if (t.name == "t") {
      in_inline_text_ = true;
      has_value_ = true;
    } else if (t.name == "rPh") {
      in_phonetic_ = true;
    } else if (t.name != "is" && t.name != "r") {
      skip_depth_ = 1;
    }
    return true;
  }

  bool EndCell(uint64_t offset) {
    state_ = State::kRow;
    if (column_ >= cells_.size()) cells_.resize(column_ + 1);
    if (column_ >= used_) used_ = column_ + 1;
    XlsxCell& cell = cells_[column_];
    // The cell's reference, for messages only (formatting it per cell costs more than the cell).
    const auto ref = [this] { return fmt::format("cell {}{}", ColumnName(column_), row_number_); };
    if (!has_value_) {
      cell.type = XlsxCell::Type::kEmpty;
      return true;
    }
    switch (cell_type_) {
      case CellType::kShared: {
        size_t index = 0;
        const auto [end, ec] = std::from_chars(value_.data(), value_.data() + value_.size(), index);
        if (ec != std::errc() || end != value_.data() + value_.size() || index >= shared_.size()) {
          return Fail(offset, fmt::format("{}: shared string index '{}' is not below {}", ref(), value_, shared_.size()));
        }
        cell.type = XlsxCell::Type::kText;
        const bool skipped = decode_ != nullptr && (column_ >= decode_->size() || !(*decode_)[column_]);
        if (!skipped) {
          cell.text = shared_[index];
        } else if (shared_[index].empty()) {
          cell.type = XlsxCell::Type::kEmpty;
        }
        return true;
      }
      case CellType::kInline:
      case CellType::kFormulaText:
      case CellType::kDate:
        if (skip_) {
          cell.type = nonempty_ ? XlsxCell::Type::kText : XlsxCell::Type::kEmpty;
        } else {
          cell.type = XlsxCell::Type::kText;
          internal::DecodeExcelEscapes(&value_);
          cell.text.swap(value_);
        }
        return true;
      case CellType::kBool:
        if (value_ != "0" && value_ != "1" && value_ != "true" && value_ != "false") {
          return Fail(offset, fmt::format("{}: boolean '{}' is not 0 or 1", ref(), value_));
        }
        cell.type = XlsxCell::Type::kBool;
        cell.number = (value_ == "1" || value_ == "true") ? 1 : 0;
        return true;
      case CellType::kError:
        cell.type = XlsxCell::Type::kError;
        if (!skip_) cell.text.swap(value_);
        return true;
      case CellType::kNumber: {
        const char* first = value_.data();
        const char* last = first + value_.size();
        while (first < last && (*first == ' ' || *first == '\t' || *first == '\n' || *first == '\r')) ++first;
        while (last > first && (last[-1] == ' ' || last[-1] == '\t' || last[-1] == '\n' || last[-1] == '\r')) --last;
        if (first == last) {
          cell.type = XlsxCell::Type::kEmpty;
          return true;
        }
        if (*first == '+') ++first;
        double v = 0;
        const auto [end, ec] = std::from_chars(first, last, v);
        if (ec != std::errc() || end != last) return Fail(offset, fmt::format("{}: number '{}' does not parse", ref(), value_));
        cell.type = XlsxCell::Type::kNumber;
        cell.number = v;
        return true;
      }
      case CellType::kOther: break;
    }
    return Fail(offset, fmt::format("{}: unknown cell type t=\"{}\"", ref(), other_type_));
  }

  static std::string ColumnName(uint32_t column) {
    std::string name;
    for (uint32_t c = column + 1; c > 0; c = (c - 1) / 26) name.insert(name.begin(), static_cast<char>('A' + (c - 1) % 26));
    return name;
  }

  const std::string& source_;
  const std::vector<std::string>& shared_;
  const XlsxReader::RowVisitor& visit_;
  const std::vector<bool>* decode_;  // the caller's; may change between rows
  Status error_;
  State state_ = State::kPrologue;
  uint32_t row_number_ = 0;
  std::vector<XlsxCell> cells_;  // reused across rows; only the first used_ are live
  size_t used_ = 0;
  uint32_t next_column_ = 0;
  uint32_t column_ = 0;
  CellType cell_type_ = CellType::kNumber;
  std::string other_type_;  // a copy: the token's buffer moves between chunks
  std::string value_;
  std::string scratch_;  // entity checks of unread texts
  bool has_value_ = false, in_value_ = false, in_inline_text_ = false, in_phonetic_ = false;
  bool skip_ = false, nonempty_ = false;
  bool try_fast_body_ = false;  // a cell's start tag was just read
  int skip_depth_ = 0;
};

Result<std::string> ReadPart(const ZipArchive& zip, std::string_view name, const std::string& source) {
  const ZipEntry* entry = zip.Find(name);
  if (!entry) return Status::InvalidInput(source, fmt::format("not an xlsx workbook: no part '{}'", name));
  return zip.ReadMember(*entry, kXlsxMaxPartBytes);
}

// A relationship target resolved against xl/ ("worksheets/sheet1.xml" or "/xl/worksheets/sheet1.xml").
Result<std::string> ResolveTarget(std::string_view target, const std::string& source) {
  std::string path = target.starts_with('/') ? std::string(target.substr(1)) : "xl/" + std::string(target);
  if (path.find("..") != std::string::npos || path.find('\\') != std::string::npos) {
    return Status::InvalidInput(source, fmt::format("relationship target '{}' leaves the package folder", target));
  }
  return path;
}

}  // namespace

Result<XlsxReader> XlsxReader::Open(Bytes file, std::string source) {
  MSP_ASSIGN_OR_RETURN(ZipArchive zip, ZipArchive::Open(file, source));
  XlsxReader reader(std::move(zip), std::move(source));
  const std::string& src = reader.source_;

  // Relationships: id → part, and the shared strings part.
  MSP_ASSIGN_OR_RETURN(std::string rels_xml, ReadPart(reader.zip_, kWorkbookRels, src));
  std::unordered_map<std::string, std::string> targets;
  std::string shared_part;
  MSP_RETURN_IF_ERROR(ScanPart(rels_xml, src, [&](const XmlToken& t) -> Status {
    if (t.name != "Relationship" || t.kind == XmlToken::Kind::kEnd || t.kind == XmlToken::Kind::kText) {
      return Status::Ok();
    }
    const auto id = XmlAttr(t.attrs, "Id");
    const auto target = XmlAttr(t.attrs, "Target");
    const auto type = XmlAttr(t.attrs, "Type");
    if (!id || !target) return Status::Ok();
    std::string decoded_target;
    MSP_RETURN_IF_ERROR(AppendXmlText(*target, &decoded_target, src));
    MSP_ASSIGN_OR_RETURN(std::string path, ResolveTarget(decoded_target, src));
    if (type && type->ends_with("/sharedStrings")) shared_part = path;
    targets[std::string(*id)] = std::move(path);
    return Status::Ok();
  }));

  MSP_ASSIGN_OR_RETURN(std::string workbook_xml, ReadPart(reader.zip_, kWorkbookPart, src));
  MSP_RETURN_IF_ERROR(ScanPart(workbook_xml, src, [&](const XmlToken& t) -> Status {
    if (t.name != "sheet" || t.kind == XmlToken::Kind::kEnd || t.kind == XmlToken::Kind::kText) return Status::Ok();
    const auto name = XmlAttr(t.attrs, "name");
    const auto id = XmlAttr(t.attrs, "id");  // r:id
    if (!name || !id) return Status::InvalidInput(src, "a <sheet> in xl/workbook.xml lacks its name or r:id");
    auto it = targets.find(std::string(*id));
    if (it == targets.end()) {
      return Status::InvalidInput(src, fmt::format("sheet relationship '{}' is not in {}", *id, kWorkbookRels));
    }
    std::string decoded_name;
    MSP_RETURN_IF_ERROR(AppendXmlText(*name, &decoded_name, src));
    reader.sheet_names_.push_back(std::move(decoded_name));
    reader.sheet_parts_.push_back(it->second);
    return Status::Ok();
  }));

  if (!shared_part.empty() && reader.zip_.Find(shared_part)) {
    MSP_ASSIGN_OR_RETURN(std::string sst, ReadPart(reader.zip_, shared_part, src));
    std::string current;
    bool in_item = false, in_text = false, in_phonetic = false;
    MSP_RETURN_IF_ERROR(ScanPart(sst, src, [&](const XmlToken& t) -> Status {
      using K = XmlToken::Kind;
      if (t.kind == K::kText) {
        if (!(in_item && in_text && !in_phonetic)) return Status::Ok();
        if (t.cdata) {
          current.append(t.text);
          return Status::Ok();
        }
        return AppendXmlText(t.text, &current, src);
      }
      const bool open = t.kind == K::kStart;
      if (t.name == "si") {
        if (t.kind == K::kEmpty) reader.shared_strings_.emplace_back();
        if (open) {
          in_item = true;
          current.clear();
        }
        if (t.kind == K::kEnd) {
          in_item = false;
          internal::DecodeExcelEscapes(&current);
          reader.shared_strings_.push_back(current);
        }
      } else if (t.name == "t" && t.kind != K::kEmpty) {
        in_text = open;
      } else if (t.name == "rPh" && t.kind != K::kEmpty) {
        in_phonetic = open;
      }
      return Status::Ok();
    }));
  }
  return reader;
}

Status XlsxReader::ReadSheet(size_t index, const RowVisitor& visit, const std::vector<bool>* decode) const {
  if (index >= sheet_parts_.size()) {
    return Status::InvalidInput(source_, fmt::format("sheet {} asked for, the workbook has {}", index,
                                                     sheet_parts_.size()));
  }
  const ZipEntry* entry = zip_.Find(sheet_parts_[index]);
  if (!entry) {
    return Status::InvalidInput(source_, fmt::format("sheet '{}' points to part '{}', which is not in the archive",
                                                     sheet_names_[index], sheet_parts_[index]));
  }
  const std::string part_source = source_ + ": " + sheet_parts_[index];
  SheetParser parser(part_source, shared_strings_, visit, decode);
  // Each inflated chunk is scanned where it lies; only a token cut by the chunk's end is copied
  // (into `tail`), and the next chunk is appended to it.
  std::string tail;
  uint64_t base = 0;  // offset of the scanned buffer's first byte in the part
  MSP_RETURN_IF_ERROR(zip_.Inflate(*entry, kXlsxMaxPartBytes, [&](std::string_view chunk) -> Status {
    if (tail.size() > kMaxPendingToken) {
      return Status::InvalidInput(part_source, fmt::format("a tag or text at offset {} runs past {} bytes", base,
                                                           kMaxPendingToken));
    }
    size_t pos = 0;
    if (tail.empty()) {
      MSP_RETURN_IF_ERROR(parser.Feed(chunk, &pos, base, false));
      tail.assign(chunk.substr(pos));
    } else {
      tail.append(chunk);
      MSP_RETURN_IF_ERROR(parser.Feed(tail, &pos, base, false));
      tail.erase(0, pos);
    }
    base += pos;
    return Status::Ok();
  }));
  size_t pos = 0;
  return parser.Feed(tail, &pos, base, true);
}

Result<std::vector<std::vector<XlsxCell>>> ReadXlsxSheetRows(Bytes file, const std::string& source, size_t index) {
  MSP_ASSIGN_OR_RETURN(XlsxReader reader, XlsxReader::Open(file, source));
  std::vector<std::vector<XlsxCell>> rows;
  MSP_RETURN_IF_ERROR(reader.ReadSheet(index, [&](uint32_t row_number, std::span<const XlsxCell> cells) -> Status {
    if (row_number <= rows.size()) {
      return Status::InvalidInput(source, fmt::format("row {} comes after row {}", row_number, rows.size()));
    }
    rows.resize(row_number - 1);
    rows.emplace_back(cells.begin(), cells.end());
    return Status::Ok();
  }));
  return rows;
}

}  // namespace msprobe::compare
