#include "msprobe/compare/cell.h"

#include "msprobe/compare/python_format.h"

namespace msprobe::compare {

std::string Cell::ToPython() const {
  switch (kind_) {
    case Kind::kText: return text_;
    case Kind::kFloat: return PythonFloatRepr(number_);
    case Kind::kInt: return std::to_string(int_);
    case Kind::kBool: return int_ ? "True" : "False";
  }
  return text_;
}

bool Cell::operator==(const Cell& o) const {
  if (kind_ != o.kind_) return false;
  switch (kind_) {
    case Kind::kText: return text_ == o.text_;
    case Kind::kFloat: return number_ == o.number_ || (number_ != number_ && o.number_ != o.number_);
    default: return int_ == o.int_;
  }
}

}  // namespace msprobe::compare
