// N threads as N processes (docs/distributed.md): an in-memory Cluster, so that a protocol between
// processes runs in every build and under the sanitizers (DistributedCompare.*, the consistency
// check's step reading).
#pragma once

#include <barrier>
#include <string>
#include <vector>

#include "msprobe/dump/util/cluster.h"

namespace msprobe::testing {

// N threads as N processes: each call is a step all of them take, its data passed in shared slots.
class ThreadWorld {
 public:
  explicit ThreadWorld(int n) : n_(n), barrier_(n), slots_(n), boxes_(n, std::vector<std::string>(n)) {}

  class Process final : public Cluster {
   public:
    Process(ThreadWorld* world, int me) : world_(world), me_(me) {}
    int process() const override { return me_; }
    int processes() const override { return world_->n_; }
    int local_processes() const override { return world_->n_; }
    std::vector<std::string> Gather(const std::string& mine) override {
      world_->slots_[me_] = mine;
      world_->barrier_.arrive_and_wait();
      std::vector<std::string> all = me_ == 0 ? world_->slots_ : std::vector<std::string>();
      world_->barrier_.arrive_and_wait();
      return all;
    }
    std::string Broadcast(const std::string& value) override {
      if (me_ == 0) world_->slots_[0] = value;
      world_->barrier_.arrive_and_wait();
      std::string got = world_->slots_[0];
      world_->barrier_.arrive_and_wait();
      return got;
    }
    std::vector<std::string> Exchange(const std::vector<std::string>& to) override {
      world_->boxes_[me_] = to;
      world_->barrier_.arrive_and_wait();
      std::vector<std::string> from(world_->n_);
      for (int p = 0; p < world_->n_; ++p) from[p] = world_->boxes_[p][me_];
      world_->barrier_.arrive_and_wait();
      return from;
    }

   private:
    ThreadWorld* world_;
    int me_;
  };

 private:
  int n_;
  std::barrier<> barrier_;
  std::vector<std::string> slots_;
  std::vector<std::vector<std::string>> boxes_;
};

}  // namespace msprobe::testing
