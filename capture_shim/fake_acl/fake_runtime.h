// A stand-in for libascendcl.so for tests without hardware (docs/capture.md A8.6): "device" memory is host
// memory with a guard header (poisoned when freed, so late reads show up), each stream is one worker
// thread running its tasks in order, the null stream runs tasks inline. Internal to the fake.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "acl_types.h"

struct aclTensorDesc {
  aclDataType dtype;
  aclFormat format;
  std::vector<int64_t> dims;
};

struct aclDataBuffer {
  void* data;
  size_t size;
};

struct aclopAttr {
  std::map<std::string, float> floats;
  std::map<std::string, bool> bools;
};

namespace fake_acl {

// Runs `task` on `stream` after everything queued before it (inline for the null stream).
void Enqueue(aclrtStream stream, std::function<void()> task);
// The small id of a stream (0 for the null stream), for dump file names.
uint32_t StreamId(aclrtStream stream);
int32_t CurrentDevice();
size_t ItemSize(aclDataType dtype);
int64_t NumElements(const std::vector<int64_t>& dims);

// One tensor of an op as the kernels and the dump see it.
struct TensorRef {
  aclDataType dtype;
  aclFormat format;
  std::vector<int64_t> dims;
  void* data;
  size_t size;
};

// Validates the op and returns a kernel to run on the stream, or an empty function (invalid).
std::function<void()> MakeKernel(const std::string& op_type, const std::vector<TensorRef>& inputs,
                                 const std::vector<TensorRef>& outputs, const aclopAttr* attr);

// Runtime dump (fake_dump.cc): when a dump session is on, wraps `kernel` so that the op's inputs (as
// they were before it ran) and outputs are emitted as one .bin file.
std::function<void()> WithDump(const std::string& op_type, aclrtStream stream, const std::vector<TensorRef>& inputs,
                               const std::vector<TensorRef>& outputs, std::function<void()> kernel);

// Fault knob: an environment variable as an integer, or `fallback`.
int64_t EnvInt(const char* name, int64_t fallback);

// The dump session's locks, held across fork() (fake_dump.cc) so that a child calling ACL never
// inherits one locked by another thread.
void LockDumpForFork();
void UnlockDumpAfterFork();

}  // namespace fake_acl
