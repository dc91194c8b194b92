#include "msprobe/compare/cluster/cluster.h"

#include "cluster/outcome_codec_internal.h"

namespace msprobe {

std::vector<std::string> Cluster::AllGather(const std::string& mine) {
  const std::vector<std::string> gathered = Gather(mine);
  return compare::internal::UnpackStrings(Broadcast(root() ? compare::internal::PackStrings(gathered) : std::string()));
}

namespace compare {

Status AgreeOnFailure(Cluster& cluster, const Status& mine) {
  for (const std::string& bytes : cluster.AllGather(internal::EncodeStatus(mine))) {
    Status s = internal::DecodeStatus(bytes);
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace compare
}  // namespace msprobe
