// The real ACL functions behind the hooks, found with dlsym(RTLD_NEXT, …) (the shim is preloaded, so
// the real library comes later in lookup order), falling back to the already loaded libascendcl.so /
// libascend_dump.so via dlopen(RTLD_NOLOAD) when the runtime was dlopen'ed with RTLD_LOCAL
// (docs/capture.md A8.7 item 1). A function that cannot be found stays null.
#pragma once

#include "acl_types.h"

namespace msprobe::capture {

struct RealAcl {
  decltype(&::aclInit) init;
  decltype(&::aclFinalize) finalize;
  decltype(&::aclrtSetDevice) set_device;
  decltype(&::aclrtResetDevice) reset_device;
  decltype(&::aclrtCreateStream) create_stream;
  decltype(&::aclrtDestroyStream) destroy_stream;
  decltype(&::aclrtSynchronizeStream) synchronize_stream;
  decltype(&::aclrtSynchronizeDevice) synchronize_device;
  decltype(&::aclrtLaunchHostFunc) launch_host_func;
  decltype(&::aclrtMallocHost) malloc_host;
  decltype(&::aclrtFreeHost) free_host;
  decltype(&::aclrtMemcpyAsync) memcpy_async;
  decltype(&::aclGetTensorDescType) desc_type;
  decltype(&::aclGetTensorDescFormat) desc_format;
  decltype(&::aclGetTensorDescSize) desc_size;
  decltype(&::aclGetTensorDescNumDims) desc_num_dims;
  decltype(&::aclGetTensorDescDimV2) desc_dim;
  decltype(&::aclGetDataBufferAddr) buffer_addr;
  decltype(&::aclGetDataBufferSizeV2) buffer_size;
  decltype(&::aclopExecuteV2) op_execute_v2;
  decltype(&::aclopExecute) op_execute;
  decltype(&::aclmdlInitDump) init_dump;
  decltype(&::aclmdlSetDump) set_dump;
  decltype(&::aclmdlFinalizeDump) finalize_dump;
  decltype(&::acldumpRegCallback) reg_dump_callback;
};

// Resolved on first use (thread-safe), then constant.
const RealAcl& Real() noexcept;

}  // namespace msprobe::capture
