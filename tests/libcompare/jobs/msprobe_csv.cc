#include "libcompare/jobs/msprobe_csv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace msprobe::compare::msprobe_csv {
namespace {

bool ParseDouble(const std::string& s, double* v) {
  if (s.empty()) return false;
  char* end = nullptr;
  *v = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

bool SameCell(const std::string& column, std::string ours, const std::string& theirs, double rtol) {
  if (ours == " inf" || ours == " -inf") ours.erase(0, 1);  // G3 CSV's spelling of a float inf
  if (ours == theirs) return true;
  double a, b;
  if (!ParseDouble(ours, &a) || !ParseDouble(theirs, &b)) return false;
  const double tolerance = column == "EucDist" ? std::max(rtol, 1e-12) : rtol;
  return std::fabs(a - b) <= tolerance * std::max(std::fabs(a), std::fabs(b));
}

}  // namespace

Table ReadCsv(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  Table table;
  std::vector<std::string> row(1);
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') row.back() += text[++i];
      else if (c == '"') quoted = false;
      else row.back() += c;
    } else if (c == '"') {
      quoted = true;
    } else if (c == ',') {
      row.emplace_back();
    } else if (c == '\n') {
      table.push_back(std::move(row));
      row.assign(1, "");
    } else if (c != '\r') {
      row.back() += c;
    }
  }
  if (row.size() > 1 || !row[0].empty()) table.push_back(std::move(row));
  return table;
}

void ExpectSameCsv(const std::string& ours_path, const std::string& theirs_path, double rtol) {
  const Table ours = ReadCsv(ours_path);
  const Table theirs = ReadCsv(theirs_path);
  ASSERT_EQ(ours.size(), theirs.size()) << ours_path << " vs " << theirs_path;
  ASSERT_FALSE(ours.empty());
  ASSERT_EQ(ours[0], theirs[0]) << "header of " << ours_path;
  for (size_t r = 1; r < ours.size(); ++r) {
    ASSERT_EQ(ours[r].size(), theirs[r].size()) << ours_path << " row " << r;
    for (size_t c = 0; c < ours[r].size(); ++c) {
      EXPECT_TRUE(SameCell(ours[0][c], ours[r][c], theirs[r][c], rtol))
          << theirs_path << " row " << r << " (" << ours[r][0] << ") column " << ours[0][c] << ": ours '"
          << ours[r][c] << "', msprobe '" << theirs[r][c] << "'";
    }
  }
}

}  // namespace msprobe::compare::msprobe_csv
