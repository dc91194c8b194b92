#include "msprobe/compare/table/cell.h"

#include "msprobe/dump/text/python_format.h"

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

}  // namespace msprobe::compare
