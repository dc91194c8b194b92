#include "output/output_timestamp_internal.h"

#include <ctime>

namespace msprobe::compare {

std::string OutputTimestamp() {
  const std::time_t now = std::time(nullptr);
  std::tm local{};
  localtime_r(&now, &local);
  char buf[32];
  std::strftime(buf, sizeof(buf), "%Y%m%d%H%M%S", &local);
  return buf;
}

}  // namespace msprobe::compare
