// libFuzzer target: arbitrary bytes decoded as every message our processes send each other (the one
// codec, msprobe/dump/util/coding.h). A decoder either rejects the bytes (std::logic_error) or returns
// a value whose message decodes and encodes to the same bytes again.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <string_view>

#include "consistency/rank_share_messages_internal.h"
#include "jobs/pair_messages_internal.h"
#include "jobs/statistics_slice_messages_internal.h"
#include "merge/rank_extract_internal.h"
#include "msprobe/dump/util/coding.h"

namespace {

template <class Encode, class Decode>
void Check(std::string_view bytes, Encode encode, Decode decode) {
  std::string message;
  try {
    message = encode(decode(bytes));
  } catch (const std::logic_error&) {
    return;
  }
  if (encode(decode(message)) != message) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace msprobe::compare::internal;  // NOLINT: every message
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  Check(bytes, msprobe::EncodeStatus, msprobe::DecodeStatus);
  Check(bytes, msprobe::PackStrings, msprobe::UnpackStrings);
  Check(bytes, EncodeEntry, DecodeEntry);
  Check(bytes, EncodeOutcome, DecodeOutcome);
  Check(bytes, EncodeSlice, DecodeSlice);
  Check(bytes, EncodeMarks, DecodeMarks);
  Check(bytes, EncodeStatisticsSlice, DecodeStatisticsSlice);
  Check(bytes, EncodeSliceRead, DecodeSliceRead);
  Check(bytes, EncodeSliceTable, DecodeSliceTable);
  Check(bytes, EncodeSlicePart, [](std::string_view b) {
    static const msprobe::compare::CompareOptions options = [] {
      msprobe::compare::CompareOptions o;
      o.write_json = true;
      o.write_xlsx = false;
      o.junit_path = "junit.xml";
      return o;
    }();
    PairOutputsPart part(options);
    DecodeSlicePart(b, &part);
    return part;
  });
  Check(bytes, msprobe::compare::EncodeExtract, msprobe::compare::DecodeExtract);
  Check(bytes, EncodeRankShare, DecodeRankShare);
  return 0;
}
