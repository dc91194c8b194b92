// The interposed ACL entry points: the shim's whole C boundary (exported by version.map). Each hook is
// noexcept, forwards to the real function and returns its result unchanged; capture work happens
// around the call, guarded so that no exception escapes and a failure only turns capture off.
#include "acl_types.h"
#include "capture_state.h"
#include "delegate_dump.h"
#include "op_capture.h"
#include "real_acl.h"

namespace {

using msprobe::capture::CaptureRecord;
using msprobe::capture::CaptureState;
using msprobe::capture::Real;

// Calls made by the shim itself (or by the runtime from inside a hook) are never captured again.
thread_local bool t_in_hook = false;

class ReentryGuard {
 public:
  ReentryGuard() { t_in_hook = true; }
  ~ReentryGuard() { t_in_hook = false; }
  ReentryGuard(const ReentryGuard&) = delete;
  ReentryGuard& operator=(const ReentryGuard&) = delete;
};

// The state when capture is configured (enabled, valid), else null. One atomic load once created.
CaptureState* Configured() noexcept {
  if (t_in_hook) return nullptr;
  CaptureState* s = CaptureState::Get();
  return s && s->config().enabled ? s : nullptr;
}

template <class Desc, class Buf, class OutBuf, class Call>
aclError CaptureOp(const char* op_type, int num_inputs, Desc input_desc, Buf inputs, int num_outputs,
                   Desc output_desc, OutBuf outputs, aclrtStream stream, Call real) noexcept {
  CaptureState* s = Configured();
  if (s == nullptr || !s->Active() || s->config().delegate) return real();
  ReentryGuard guard;
  CaptureRecord* record = msprobe::capture::BeginOpCapture(
      *s, op_type, num_inputs, const_cast<const aclTensorDesc* const*>(input_desc),
      const_cast<const aclDataBuffer* const*>(inputs), num_outputs,
      const_cast<const aclTensorDesc* const*>(output_desc), const_cast<const aclDataBuffer* const*>(outputs), stream);
  const aclError result = real();
  if (record) {
    msprobe::capture::EndOpCapture(*s, record, result, const_cast<const aclDataBuffer* const*>(outputs), stream);
  }
  return result;
}

}  // namespace

// Exported (hidden visibility is the default for everything else; version.map lists these).
#pragma GCC visibility push(default)
extern "C" {

aclError aclInit(const char* configPath) noexcept {
  if (!Real().init) return ACL_ERROR_INTERNAL_ERROR;
  const aclError result = Real().init(configPath);
  if (result == ACL_SUCCESS || result == ACL_ERROR_REPEAT_INITIALIZE) {
    if (CaptureState* s = Configured()) s->OnInit();
  }
  return result;
}

aclError aclFinalize(void) noexcept {
  if (!Real().finalize) return ACL_ERROR_INTERNAL_ERROR;
  if (CaptureState* s = Configured()) {
    ReentryGuard guard;
    s->BeforeFinalize();
  }
  return Real().finalize();
}

aclError aclrtSetDevice(int32_t deviceId) noexcept {
  if (!Real().set_device) return ACL_ERROR_INTERNAL_ERROR;
  const aclError result = Real().set_device(deviceId);
  if (result == ACL_SUCCESS) {
    if (CaptureState* s = Configured()) {
      ReentryGuard guard;
      s->OnSetDevice(deviceId);
    }
  }
  return result;
}

aclError aclrtResetDevice(int32_t deviceId) noexcept {
  if (!Real().reset_device) return ACL_ERROR_INTERNAL_ERROR;
  if (CaptureState* s = Configured()) {
    ReentryGuard guard;
    s->BeforeResetDevice();
  }
  return Real().reset_device(deviceId);
}

aclError aclrtCreateStream(aclrtStream* stream) noexcept {
  if (!Real().create_stream) return ACL_ERROR_INTERNAL_ERROR;
  const aclError result = Real().create_stream(stream);
  if (result == ACL_SUCCESS && stream != nullptr) {
    if (CaptureState* s = Configured()) s->OnCreateStream(*stream);
  }
  return result;
}

aclError aclrtDestroyStream(aclrtStream stream) noexcept {
  if (!Real().destroy_stream) return ACL_ERROR_INTERNAL_ERROR;
  if (CaptureState* s = Configured()) {
    ReentryGuard guard;
    s->BeforeDestroyStream(stream);
  }
  return Real().destroy_stream(stream);
}

aclError aclopExecuteV2(const char* opType, int numInputs, aclTensorDesc* inputDesc[], aclDataBuffer* inputs[],
                        int numOutputs, aclTensorDesc* outputDesc[], aclDataBuffer* outputs[], aclopAttr* attr,
                        aclrtStream stream) noexcept {
  const auto real = Real().op_execute_v2;
  if (!real) return ACL_ERROR_INTERNAL_ERROR;
  return CaptureOp(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, stream, [&] {
    return real(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr, stream);
  });
}

aclError aclopExecute(const char* opType, int numInputs, const aclTensorDesc* const inputDesc[],
                      const aclDataBuffer* const inputs[], int numOutputs, const aclTensorDesc* const outputDesc[],
                      aclDataBuffer* const outputs[], const aclopAttr* attr, aclrtStream stream) noexcept {
  const auto real = Real().op_execute;
  if (!real) return ACL_ERROR_INTERNAL_ERROR;
  return CaptureOp(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, stream, [&] {
    return real(opType, numInputs, inputDesc, inputs, numOutputs, outputDesc, outputs, attr, stream);
  });
}

// Delegate mode: the shim owns the runtime dump session (delegate_dump.h).
aclError aclmdlInitDump(void) noexcept {
  if (CaptureState* s = Configured(); s && msprobe::capture::DelegateOwnsDump(*s)) return ACL_SUCCESS;
  return Real().init_dump ? Real().init_dump() : ACL_ERROR_INTERNAL_ERROR;
}

aclError aclmdlSetDump(const char* dumpCfgPath) noexcept {
  if (CaptureState* s = Configured(); s && msprobe::capture::DelegateOwnsDump(*s)) return ACL_SUCCESS;
  return Real().set_dump ? Real().set_dump(dumpCfgPath) : ACL_ERROR_INTERNAL_ERROR;
}

aclError aclmdlFinalizeDump(void) noexcept {
  if (CaptureState* s = Configured(); s && msprobe::capture::DelegateOwnsDump(*s)) return ACL_SUCCESS;
  return Real().finalize_dump ? Real().finalize_dump() : ACL_ERROR_INTERNAL_ERROR;
}

aclError acldumpRegCallback(acldumpCallback messageCallback, int32_t flag) noexcept {
  if (CaptureState* s = Configured(); s && msprobe::capture::DelegateOwnsDump(*s)) {
    msprobe::capture::ChainProgramCallback(messageCallback);
    return ACL_SUCCESS;
  }
  return Real().reg_dump_callback ? Real().reg_dump_callback(messageCallback, flag) : ACL_ERROR_INTERNAL_ERROR;
}

}  // extern "C"
#pragma GCC visibility pop
