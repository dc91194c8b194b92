#include "msprobe/compare/table/cell.h"

#include "msprobe/dump/text/python_format.h"
#include "msprobe/dump/util/coding.h"

namespace msprobe::compare {

std::string Cell::ToPython() const {
  switch (kind_) {
    case Kind::kText: return text_;
    case Kind::kFloat: return PythonFloatRepr(value_.number);
    case Kind::kInt: return std::to_string(value_.integer);
    case Kind::kBool: return std::string(PythonBoolStr(value_.integer != 0));
  }
  return text_;
}

bool Cell::operator==(const Cell& o) const {
  if (kind_ != o.kind_) return false;
  switch (kind_) {
    case Kind::kText: return text_ == o.text_;
    case Kind::kFloat: {
      const double a = value_.number, b = o.value_.number;
      return a == b || (a != a && b != b);
    }
    default: return value_.integer == o.value_.integer;
  }
}

void WritePyJson(const Cell& cell, PyJsonWriter* writer) {
  switch (cell.kind()) {
    case Cell::Kind::kText: writer->String(cell.text()); return;
    case Cell::Kind::kInt: writer->Int(cell.integer()); return;
    case Cell::Kind::kBool: writer->Bool(cell.boolean()); return;
    case Cell::Kind::kFloat: writer->Float(cell.number()); return;
  }
}

void PutCell(std::string* dst, const Cell& cell) {
  PutEnum(dst, cell.kind());
  switch (cell.kind()) {
    case Cell::Kind::kText: PutString(dst, cell.text()); break;
    case Cell::Kind::kFloat: PutDouble(dst, cell.number()); break;
    case Cell::Kind::kInt: PutSignedVarint64(dst, cell.integer()); break;
    case Cell::Kind::kBool: PutBool(dst, cell.boolean()); break;
  }
}

bool GetCell(Decoder* in, Cell* cell) {
  Cell::Kind kind = Cell::Kind::kText;
  if (!GetEnum(in, &kind, Cell::Kind::kBool)) return false;
  switch (kind) {
    case Cell::Kind::kText: {
      std::string text;
      if (!GetString(in, &text)) return false;
      *cell = Cell::Text(std::move(text));
      return true;
    }
    case Cell::Kind::kFloat: {
      double number = 0;
      if (!GetDouble(in, &number)) return false;
      *cell = Cell::Float(number);
      return true;
    }
    case Cell::Kind::kInt: {
      int64_t integer = 0;
      if (!GetSignedVarint64(in, &integer)) return false;
      *cell = Cell::Int(integer);
      return true;
    }
    case Cell::Kind::kBool: {
      bool boolean = false;
      if (!GetBool(in, &boolean)) return false;
      *cell = Cell::Bool(boolean);
      return true;
    }
  }
  return in->Fail("a cell of no kind");  // GetEnum lets none through
}

}  // namespace msprobe::compare
