// The right_matmul post-processing of tensor mode (docs/compare.md §4.2 step 3): the calibration
// tensors the yaml maps name, loaded once for the run, and np.matmul(value, calibration) on the tensors
// of the rows they are mapped to, before the metrics. Thread-safe once loaded.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "msprobe/compare/rows/right_matmul_map.h"

namespace msprobe::compare {

// A product is held whole in memory (as doubles): a tensor is multiplied only when its elements and
// the product's add up to at most this many (1 GiB each at most), and a calibration tensor holds at
// most this many. Past it the row is compared as dumped, with a warning.
inline constexpr uint64_t kRightMatmulMaxElements = uint64_t{1} << 27;

class RightMatmul {
 public:
  struct Calibration;  // metrics/right_matmul_internal.h

  RightMatmul();
  RightMatmul(RightMatmul&&) noexcept;
  RightMatmul& operator=(RightMatmul&&) noexcept;
  ~RightMatmul();

  // Loads every calibration tensor the maps name (.npy, or .pt/.pth, by the suffix as msprobe). One
  // that cannot be used (unreadable, another suffix, a dtype numpy has none of such as bfloat16,
  // complex, past kRightMatmulMaxElements) is kept as its error: the rows mapped to it are compared as
  // dumped, as msprobe compares them, and `warnings` gets a line naming it.
  static RightMatmul Load(const std::vector<RightMatmulMap>& maps, std::vector<std::string>* warnings);

  bool empty() const { return calibrations_.empty(); }
  // The calibrations one side's tensor `data_name` is multiplied by, one map after the other.
  std::vector<const Calibration*> Of(bool target, const std::string& data_name) const;

  // A row compared as dumped because its product could not be made (shapes, size, dtype): counted
  // for the run's warning.
  void NoteFailure(const std::string& why) const;
  uint64_t failures() const;
  std::string first_failure() const;  // the smallest of their texts, "" when none

  // Products run one at a time (each may use every core): memory holds one.
  std::mutex& product_mutex() const { return product_mutex_; }

 private:
  std::vector<std::unique_ptr<Calibration>> calibrations_;
  // Per map, in order: data_name → index into calibrations_.
  std::vector<std::unordered_map<std::string, size_t>> target_, golden_;
  mutable std::mutex failures_mutex_, product_mutex_;
  mutable uint64_t failures_ = 0;
  mutable std::string first_failure_;
};

}  // namespace msprobe::compare
