#include "msprobe/dump/util/cluster.h"

#include "msprobe/dump/util/coding.h"

namespace msprobe {

std::vector<std::string> Cluster::AllGather(const std::string& mine) {
  const std::vector<std::string> gathered = Gather(mine);
  return UnpackStrings(Broadcast(root() ? PackStrings(gathered) : std::string()));
}

Status AgreeOnFailure(Cluster& cluster, const Status& mine) {
  for (const std::string& bytes : cluster.AllGather(EncodeStatus(mine))) {
    Status s = DecodeStatus(bytes);
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace msprobe
