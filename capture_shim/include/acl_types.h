/* The slice of the Ascend ACL C API that the capture shim, the fake runtime and the sample program use
 * (docs/capture.md A2, docs/kernel_dump.md §8.2). No vendor header exists here: the types, constants and
 * signatures below are written from those notes, with the runtime dtype numbering of docs/capture.md A4.
 * Every function is noexcept in C++ so that the shim's definitions (which must never throw across the
 * C boundary) are checked against these declarations by the compiler. */
#ifndef MSPROBE_CAPTURE_ACL_TYPES_H_
#define MSPROBE_CAPTURE_ACL_TYPES_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
#define ACL_NOEXCEPT noexcept
extern "C" {
#else
#define ACL_NOEXCEPT
#endif

typedef int aclError;
typedef void *aclrtStream;
typedef struct aclTensorDesc aclTensorDesc;
typedef struct aclDataBuffer aclDataBuffer;
typedef struct aclopAttr aclopAttr;
typedef void (*aclrtHostFunc)(void *args);

#define ACL_SUCCESS 0
#define ACL_ERROR_INVALID_PARAM 100000
#define ACL_ERROR_REPEAT_INITIALIZE 100002
#define ACL_ERROR_INTERNAL_ERROR 500000

typedef enum {
  ACL_DT_UNDEFINED = -1,
  ACL_FLOAT = 0,
  ACL_FLOAT16 = 1,
  ACL_INT8 = 2,
  ACL_INT32 = 3,
  ACL_UINT8 = 4,
  ACL_INT16 = 6,
  ACL_UINT16 = 7,
  ACL_UINT32 = 8,
  ACL_INT64 = 9,
  ACL_UINT64 = 10,
  ACL_DOUBLE = 11,
  ACL_BOOL = 12,
  ACL_STRING = 13,
  ACL_COMPLEX64 = 16,
  ACL_COMPLEX128 = 17,
  ACL_BF16 = 27,
  ACL_INT4 = 29,
  ACL_UINT1 = 30,
  ACL_COMPLEX32 = 33
} aclDataType;

typedef enum {
  ACL_FORMAT_UNDEFINED = -1,
  ACL_FORMAT_NCHW = 0,
  ACL_FORMAT_NHWC = 1,
  ACL_FORMAT_ND = 2,
  ACL_FORMAT_NC1HWC0 = 3,
  ACL_FORMAT_FRACTAL_Z = 4,
  ACL_FORMAT_NC1HWC0_C04 = 12,
  ACL_FORMAT_HWCN = 16,
  ACL_FORMAT_NDHWC = 27,
  ACL_FORMAT_FRACTAL_NZ = 29,
  ACL_FORMAT_NCDHW = 30,
  ACL_FORMAT_NDC1HWC0 = 32,
  ACL_FRACTAL_Z_3D = 33,
  ACL_FORMAT_NC = 35,
  ACL_FORMAT_NCL = 47
} aclFormat;

typedef enum {
  ACL_MEMCPY_HOST_TO_HOST = 0,
  ACL_MEMCPY_HOST_TO_DEVICE = 1,
  ACL_MEMCPY_DEVICE_TO_HOST = 2,
  ACL_MEMCPY_DEVICE_TO_DEVICE = 3
} aclrtMemcpyKind;

typedef enum {
  ACL_MEM_MALLOC_HUGE_FIRST = 0,
  ACL_MEM_MALLOC_HUGE_ONLY = 1,
  ACL_MEM_MALLOC_NORMAL_ONLY = 2
} aclrtMemMallocPolicy;

#define ACL_DUMP_MAX_FILE_PATH_LENGTH 4096
/* One piece of a dump file handed to a callback registered with acldumpRegCallback; the pieces of one
 * file arrive in order and concatenate to exactly the file (docs/kernel_dump.md §8.2). */
typedef struct acldumpChunk {
  char fileName[ACL_DUMP_MAX_FILE_PATH_LENGTH]; /* full path the file would have on disk */
  uint32_t bufLen;                              /* bytes in dataBuf */
  uint32_t isLastChunk;                         /* 1 on the final chunk */
  int64_t offset;                               /* -1: append */
  int32_t flag;                                 /* reserved */
  uint8_t dataBuf[0];
} acldumpChunk;
typedef int32_t (*acldumpCallback)(const acldumpChunk *chunk, int32_t len);

/* Lifecycle and devices. */
aclError aclInit(const char *configPath) ACL_NOEXCEPT;
aclError aclFinalize(void) ACL_NOEXCEPT;
aclError aclrtSetDevice(int32_t deviceId) ACL_NOEXCEPT;
aclError aclrtResetDevice(int32_t deviceId) ACL_NOEXCEPT;
aclError aclrtGetDevice(int32_t *deviceId) ACL_NOEXCEPT;

/* Streams. */
aclError aclrtCreateStream(aclrtStream *stream) ACL_NOEXCEPT;
aclError aclrtDestroyStream(aclrtStream stream) ACL_NOEXCEPT;
aclError aclrtSynchronizeStream(aclrtStream stream) ACL_NOEXCEPT;
aclError aclrtSynchronizeDevice(void) ACL_NOEXCEPT;
aclError aclrtLaunchHostFunc(aclrtStream stream, aclrtHostFunc fn, void *args) ACL_NOEXCEPT;

/* Memory. */
aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy) ACL_NOEXCEPT;
aclError aclrtFree(void *devPtr) ACL_NOEXCEPT;
aclError aclrtMallocHost(void **hostPtr, size_t size) ACL_NOEXCEPT;
aclError aclrtFreeHost(void *hostPtr) ACL_NOEXCEPT;
aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind) ACL_NOEXCEPT;
aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count, aclrtMemcpyKind kind,
                          aclrtStream stream) ACL_NOEXCEPT;

/* Tensor descriptions, data buffers, attributes. */
aclTensorDesc *aclCreateTensorDesc(aclDataType dataType, int numDims, const int64_t *dims,
                                   aclFormat format) ACL_NOEXCEPT;
void aclDestroyTensorDesc(const aclTensorDesc *desc) ACL_NOEXCEPT;
aclDataType aclGetTensorDescType(const aclTensorDesc *desc) ACL_NOEXCEPT;
aclFormat aclGetTensorDescFormat(const aclTensorDesc *desc) ACL_NOEXCEPT;
size_t aclGetTensorDescSize(const aclTensorDesc *desc) ACL_NOEXCEPT;
size_t aclGetTensorDescNumDims(const aclTensorDesc *desc) ACL_NOEXCEPT;
aclError aclGetTensorDescDimV2(const aclTensorDesc *desc, size_t index, int64_t *dimSize) ACL_NOEXCEPT;
aclDataBuffer *aclCreateDataBuffer(void *data, size_t size) ACL_NOEXCEPT;
aclError aclDestroyDataBuffer(const aclDataBuffer *dataBuffer) ACL_NOEXCEPT;
void *aclGetDataBufferAddr(const aclDataBuffer *dataBuffer) ACL_NOEXCEPT;
size_t aclGetDataBufferSizeV2(const aclDataBuffer *dataBuffer) ACL_NOEXCEPT;
aclopAttr *aclopCreateAttr(void) ACL_NOEXCEPT;
void aclopDestroyAttr(const aclopAttr *attr) ACL_NOEXCEPT;
aclError aclopSetAttrFloat(aclopAttr *attr, const char *attrName, float attrValue) ACL_NOEXCEPT;
aclError aclopSetAttrBool(aclopAttr *attr, const char *attrName, uint8_t attrValue) ACL_NOEXCEPT;

/* Single-op execution (asynchronous on `stream`). */
aclError aclopExecuteV2(const char *opType, int numInputs, aclTensorDesc *inputDesc[], aclDataBuffer *inputs[],
                        int numOutputs, aclTensorDesc *outputDesc[], aclDataBuffer *outputs[], aclopAttr *attr,
                        aclrtStream stream) ACL_NOEXCEPT;
aclError aclopExecute(const char *opType, int numInputs, const aclTensorDesc *const inputDesc[],
                      const aclDataBuffer *const inputs[], int numOutputs, const aclTensorDesc *const outputDesc[],
                      aclDataBuffer *const outputs[], const aclopAttr *attr, aclrtStream stream) ACL_NOEXCEPT;

/* Runtime dump. */
aclError aclmdlInitDump(void) ACL_NOEXCEPT;
aclError aclmdlSetDump(const char *dumpCfgPath) ACL_NOEXCEPT;
aclError aclmdlFinalizeDump(void) ACL_NOEXCEPT;
aclError acldumpRegCallback(acldumpCallback messageCallback, int32_t flag) ACL_NOEXCEPT;

#ifdef __cplusplus
}
#endif
#endif /* MSPROBE_CAPTURE_ACL_TYPES_H_ */
