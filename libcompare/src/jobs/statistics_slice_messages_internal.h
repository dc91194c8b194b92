// A statistics pair's slices (jobs/statistics_slices.cc) as the bytes processes send each other, on the
// one codec (msprobe/dump/util/coding.h): a slice's entries out from the owner, what it read and its
// finished rows back, either made ready for the owner's outputs (PairOutputsPart) or, with a workbook,
// -da or --html, as rows. A slice holds hundreds of thousands of rows: their fields are written one after
// the other, with nothing between (CBOR through nlohmann_json's document took several times as long as
// comparing them). Only our own processes read these: a message that does not decode is a bug, and throws.
#pragma once

#include <string>
#include <string_view>

#include "jobs/pair_outputs_internal.h"
#include "jobs/pair_steps_internal.h"
#include "jobs/statistics_slice_compare_internal.h"
#include "jobs/statistics_slices_internal.h"

namespace msprobe::compare::internal {

std::string EncodeStatisticsSlice(const StatisticsSlice& slice);
StatisticsSlice DecodeStatisticsSlice(std::string_view bytes);

std::string EncodeSliceRead(const SliceRead& read);
SliceRead DecodeSliceRead(std::string_view bytes);

// A batch of a slice's finished rows.
std::string EncodeSliceTable(const SliceTable& table);
SliceTable DecodeSliceTable(std::string_view bytes);

// A slice's rows made ready for its owner's outputs; decoded into a part made with the run's options.
std::string EncodeSlicePart(const PairOutputsPart& part);
void DecodeSlicePart(std::string_view bytes, PairOutputsPart* part);

}  // namespace msprobe::compare::internal
