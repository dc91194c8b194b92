// Resolution of the real ACL entry points.
#include "real_acl.h"

#include <dlfcn.h>

#include <initializer_list>

namespace msprobe::capture {
namespace {

void* Resolve(const char* name) noexcept {
  if (void* p = dlsym(RTLD_NEXT, name)) return p;
  for (const char* lib : {"libascendcl.so", "libascend_dump.so"}) {
    if (void* handle = dlopen(lib, RTLD_LAZY | RTLD_NOLOAD)) {
      void* p = dlsym(handle, name);
      dlclose(handle);  // drops only the reference RTLD_NOLOAD added
      if (p) return p;
    }
  }
  return nullptr;
}

template <class F>
void Bind(F* slot, const char* name) noexcept {
  *slot = reinterpret_cast<F>(Resolve(name));
}

RealAcl ResolveAll() noexcept {
  RealAcl r{};
  Bind(&r.init, "aclInit");
  Bind(&r.finalize, "aclFinalize");
  Bind(&r.set_device, "aclrtSetDevice");
  Bind(&r.reset_device, "aclrtResetDevice");
  Bind(&r.create_stream, "aclrtCreateStream");
  Bind(&r.destroy_stream, "aclrtDestroyStream");
  Bind(&r.synchronize_stream, "aclrtSynchronizeStream");
  Bind(&r.synchronize_device, "aclrtSynchronizeDevice");
  Bind(&r.launch_host_func, "aclrtLaunchHostFunc");
  Bind(&r.malloc_host, "aclrtMallocHost");
  Bind(&r.free_host, "aclrtFreeHost");
  Bind(&r.memcpy_async, "aclrtMemcpyAsync");
  Bind(&r.desc_type, "aclGetTensorDescType");
  Bind(&r.desc_format, "aclGetTensorDescFormat");
  Bind(&r.desc_size, "aclGetTensorDescSize");
  Bind(&r.desc_num_dims, "aclGetTensorDescNumDims");
  Bind(&r.desc_dim, "aclGetTensorDescDimV2");
  Bind(&r.buffer_addr, "aclGetDataBufferAddr");
  Bind(&r.buffer_size, "aclGetDataBufferSizeV2");
  Bind(&r.op_execute_v2, "aclopExecuteV2");
  Bind(&r.op_execute, "aclopExecute");
  Bind(&r.init_dump, "aclmdlInitDump");
  Bind(&r.set_dump, "aclmdlSetDump");
  Bind(&r.finalize_dump, "aclmdlFinalizeDump");
  Bind(&r.reg_dump_callback, "acldumpRegCallback");
  return r;
}

}  // namespace

const RealAcl& Real() noexcept {
  static const RealAcl real = ResolveAll();
  return real;
}

}  // namespace msprobe::capture
