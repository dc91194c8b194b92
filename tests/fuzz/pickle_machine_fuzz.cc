// libFuzzer target: the pickle machine on arbitrary bytes, then a walk over the tree it returns
// (every reference must be in range; Describe must terminate on shared and cyclic values).
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "msprobe/dump/formats/pickle_machine.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const msprobe::Bytes bytes(reinterpret_cast<const std::byte*>(data), size);
  msprobe::Result<msprobe::PickleTree> tree = msprobe::Unpickle(bytes, "fuzz.pkl");
  if (!tree.ok()) return 0;
  if (tree->root() >= tree->size() || tree->end_offset() > size) std::abort();
  for (msprobe::PickleRef ref = 0; ref < tree->size(); ++ref) {
    for (msprobe::PickleRef item : tree->at(ref).items) {
      if (item >= tree->size()) std::abort();
    }
    (void)tree->Describe(ref);
  }
  return 0;
}
