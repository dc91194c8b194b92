#include <nlohmann/json.hpp>

#include "merge/rank_extract_internal.h"

namespace msprobe::compare {

using nlohmann::json;

std::string EncodeExtract(const RankExtract& e) {
  json values = json::array();
  for (const std::vector<MergeValue>& column : e.values) {
    json c = json::array();
    for (const MergeValue& v : column) {
      switch (v.kind) {
        case MergeValue::Kind::kMissing: c.push_back(json::array({0})); break;
        case MergeValue::Kind::kText: c.push_back(json::array({1, std::string(v.text)})); break;
        case MergeValue::Kind::kFloat: c.push_back(json::array({2, v.number})); break;
        case MergeValue::Kind::kInt: c.push_back(json::array({3, v.integer})); break;
        case MergeValue::Kind::kBool: c.push_back(json::array({4, v.integer})); break;
      }
    }
    values.push_back(std::move(c));
  }
  json names = json::array();
  for (std::string_view name : e.names) names.push_back(std::string(name));
  const std::vector<uint8_t> cbor = json::to_cbor(json{{"rank", e.input.rank},
                                                       {"path", e.input.path},
                                                       {"warnings", e.warnings},
                                                       {"usable", e.usable},
                                                       {"indexes", e.indexes},
                                                       {"names", names},
                                                       {"values", values}});
  return std::string(cbor.begin(), cbor.end());
}

RankExtract DecodeExtract(std::string_view bytes) {
  const json j = json::from_cbor(bytes.begin(), bytes.end());
  RankExtract e;
  j.at("rank").get_to(e.input.rank);
  j.at("path").get_to(e.input.path);
  j.at("warnings").get_to(e.warnings);
  j.at("usable").get_to(e.usable);
  j.at("indexes").get_to(e.indexes);
  e.data = std::make_unique<RankData>();
  std::deque<std::string>& texts = e.data->replaced;  // owns every text the extract views
  for (const json& name : j.at("names")) e.names.push_back(texts.emplace_back(name.get<std::string>()));
  for (const json& column : j.at("values")) {
    std::vector<MergeValue>& c = e.values.emplace_back();
    for (const json& cell : column) {
      MergeValue v;
      v.kind = static_cast<MergeValue::Kind>(cell.at(0).get<int>());
      if (v.kind == MergeValue::Kind::kText) v.text = texts.emplace_back(cell.at(1).get<std::string>());
      if (v.kind == MergeValue::Kind::kFloat) v.number = cell.at(1).get<double>();
      if (v.kind == MergeValue::Kind::kInt || v.kind == MergeValue::Kind::kBool) v.integer = cell.at(1).get<int64_t>();
      c.push_back(v);
    }
  }
  return e;
}

}  // namespace msprobe::compare
