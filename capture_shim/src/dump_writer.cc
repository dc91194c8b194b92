// The writer thread and everything it writes.
#include "dump_writer.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <charconv>
#include <chrono>
#include <cstdio>

#include "dtype_map.h"
#include "file_names.h"
#include "json_line.h"
#include "proto_encoder.h"
#include "real_acl.h"
#include "slot_stats.h"

namespace msprobe::capture {
namespace {

constexpr mode_t kDirMode = 0750;
constexpr mode_t kFileMode = 0640;

bool WriteAll(int fd, const void* data, uint64_t size) {
  const auto* p = static_cast<const char*>(data);
  while (size > 0) {
    const size_t chunk = size > (1ull << 30) ? (1ull << 30) : static_cast<size_t>(size);
    const ssize_t n = ::write(fd, p, chunk);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += n;
    size -= static_cast<uint64_t>(n);
  }
  return true;
}

bool PWriteAll(int fd, const char* p, uint64_t size, uint64_t offset) {
  while (size > 0) {
    const size_t chunk = size > (1ull << 30) ? (1ull << 30) : static_cast<size_t>(size);
    const ssize_t n = ::pwrite(fd, p, chunk, static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    p += n;
    offset += static_cast<uint64_t>(n);
    size -= static_cast<uint64_t>(n);
  }
  return true;
}

// O_DIRECT writes are issued in pieces of this size: each is synchronous, and pins this much memory.
constexpr uint64_t kDirectPiece = 64ull << 20;

bool MakeDirs(const std::string& path) {
  for (size_t pos = 1; pos <= path.size(); ++pos) {
    if (pos != path.size() && path[pos] != '/') continue;
    const std::string prefix = path.substr(0, pos);
    if (::mkdir(prefix.c_str(), kDirMode) != 0 && errno != EEXIST) return false;
  }
  return true;
}

std::string Number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, res.ptr);
}

// A CSV cell: quoted when it holds a separator or quote; a leading formula character is neutralised
// with a quote mark (docs/capture.md A8.5: CSV injection).
std::string CsvCell(std::string_view v) {
  std::string s;
  if (!v.empty() && std::string_view("=+-@%").find(v[0]) != std::string_view::npos) s.push_back('\'');
  s.append(v);
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

std::string ShapeText(const std::vector<int64_t>& dims) {
  std::string s = "(";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i) s.push_back(',');
    s.append(std::to_string(dims[i]));
  }
  s.push_back(')');
  return s;
}

constexpr const char* kStatsHeader =
    "Op Type,Op Name,Task ID,Stream ID,Timestamp,Input/Output,Slot,Data Size,Data Type,Format,Shape,"
    "Max Value,Min Value,Avg Value,L2Norm Value,NaN Count,Negative Inf Count,Positive Inf Count\n";

}  // namespace

DumpWriter::DumpWriter(const Config& config, void (*on_fatal)(const char*))
    : config_(config), on_fatal_(on_fatal), timestamp_(TimestampDir()) {}

bool DumpWriter::Reserve(uint64_t bytes, bool wait) {
  if (bytes > config_.memory_budget) return false;
  std::unique_lock lock(mu_);
  if (in_use_ + bytes > config_.memory_budget) {
    if (!wait) return false;
    if (!room_cv_.wait_for(lock, std::chrono::minutes(1),
                           [&] { return in_use_ + bytes <= config_.memory_budget; })) {
      return false;
    }
  }
  in_use_ += bytes;
  const std::vector<void*> excess = TrimPoolLocked();
  lock.unlock();
  for (void* p : excess) Real().free_host(p);
  return true;
}

std::vector<void*> DumpWriter::TrimPoolLocked() {
  std::vector<void*> excess;
  while (!pool_.empty() && pooled_bytes_ + in_use_ > config_.memory_budget) {
    auto largest = std::prev(pool_.end());
    pooled_bytes_ -= largest->first;
    excess.push_back(largest->second);
    pool_.erase(largest);
  }
  return excess;
}

void* DumpWriter::TakeHostBuffer(uint64_t size) {
  {
    std::lock_guard lock(mu_);
    auto it = pool_.find(size);
    if (it != pool_.end()) {
      void* p = it->second;
      pooled_bytes_ -= size;
      pool_.erase(it);
      return p;
    }
  }
  void* p = nullptr;
  return Real().malloc_host(&p, size) == ACL_SUCCESS ? p : nullptr;
}

void DumpWriter::GiveBack(void* buffer, uint64_t size) {
  if (runtime_gone_.load()) {
    std::lock_guard lock(out_mu_);
    abandoned_.push_back(buffer);  // the runtime may be gone: keep it, reachable for leak checkers
    return;
  }
  std::vector<void*> excess;
  {
    std::lock_guard lock(mu_);
    pool_.emplace(size, buffer);
    pooled_bytes_ += size;
    excess = TrimPoolLocked();
  }
  for (void* p : excess) Real().free_host(p);
}

void DumpWriter::ReleasePool() {
  std::multimap<uint64_t, void*> pool;
  {
    std::lock_guard lock(mu_);
    pool.swap(pool_);
    pooled_bytes_ = 0;
  }
  if (runtime_gone_.load()) {
    std::lock_guard lock(out_mu_);
    for (const auto& [size, p] : pool) abandoned_.push_back(p);
    return;
  }
  for (const auto& [size, p] : pool) Real().free_host(p);
}

void DumpWriter::Push(CaptureRecord* record) noexcept {
  bool start = false;
  {
    std::lock_guard lock(mu_);
    record->next = nullptr;
    if (tail_) tail_->next = record; else head_ = record;
    tail_ = record;
    if (!thread_started_) start = thread_started_ = true;
  }
  if (start) {
    try {
      std::thread(&DumpWriter::Loop, this).detach();
    } catch (...) {
      on_fatal_("cannot start the writer thread");
    }
  }
  ready_cv_.notify_one();
}

bool DumpWriter::Drain(int timeout_ms) {
  std::unique_lock lock(mu_);
  return idle_cv_.wait_for(lock, std::chrono::milliseconds(timeout_ms),
                           [&] { return outstanding_.load() == 0; });
}

void DumpWriter::Loop() {
  for (;;) {
    CaptureRecord* r;
    {
      std::unique_lock lock(mu_);
      ready_cv_.wait(lock, [&] { return head_ != nullptr; });
      r = head_;
      head_ = r->next;
      if (!head_) tail_ = nullptr;
    }
    try {
      Finish(r);
    } catch (...) {
      on_fatal_("internal error in the writer thread");
    }
    const uint64_t freed = r->reserved_bytes;
    delete r;
    {
      std::lock_guard lock(mu_);
      in_use_ -= freed;
      outstanding_.fetch_sub(1);
    }
    room_cv_.notify_all();
    idle_cv_.notify_all();
  }
}

void DumpWriter::Finish(CaptureRecord* r) {
  const char* reason = r->failure;
  std::string file, stats_json;
  uint64_t bytes = 0, direct_bytes = 0;
  if (!reason && r->chunked) {  // already written by the hook
    file = r->chunked->file;
    bytes = r->chunked->bytes;
    direct_bytes = r->chunked->out.direct_bytes;
  } else if (!reason) {
    reason = config_.mode == CaptureMode::kStats ? WriteStats(*r, &stats_json)
                                                 : WriteTensors(*r, &file, &bytes, &direct_bytes);
  }
  for (CapturedSlot& s : r->slots) {
    if (s.alloc) GiveBack(s.alloc, s.alloc_size);
    s.host = s.alloc = nullptr;
  }
  if (r->chunked && r->chunked->buffer) GiveBack(r->chunked->buffer, r->chunked->buffer_alloc);
  JsonLine line;
  line.Int("seq", static_cast<int64_t>(r->seq)).Int("pid", ::getpid()).Int("tid", r->tid)
      .Int("rank", r->rank).Int("device", r->device).Int("stream", r->stream ? r->stream->id : 0)
      .Int("task", static_cast<int64_t>(r->task_id)).Str("op_type", r->op_type)
      .Str("op_name", OpName(r->op_type, r->seq));
  if (reason) {
    dropped_.fetch_add(1);
    line.Str("status", "dropped").Str("reason", reason);
  } else if (config_.mode == CaptureMode::kStats) {
    line.Str("status", "stats").Raw("slots", stats_json);
  } else {
    std::string slots = "[";
    for (const CapturedSlot& s : r->slots) {
      JsonLine js;
      js.Str("io", s.is_input ? "input" : "output").Int("index", s.index)
          .Str("dtype", ProtoDTypeName(ProtoDType(s.acl_dtype))).Int("acl_dtype", s.acl_dtype)
          .Str("format", ProtoFormatName(ProtoFormat(s.acl_format))).Ints("shape", s.dims)
          .Int("size", static_cast<int64_t>(s.size));
      if (slots.size() > 1) slots.push_back(',');
      slots.append(js.Object());
    }
    line.Str("status", "written").Str("file", file).Int("bytes", static_cast<int64_t>(bytes)).Raw("slots", slots + "]");
    if (r->chunked) line.Int("pieces", static_cast<int64_t>(r->chunked->pieces));
    if (direct_bytes) line.Int("direct", static_cast<int64_t>(direct_bytes));
  }
  ManifestLine(r->rank, line.Object());
}

std::string DumpWriter::RunDir(uint32_t rank) const {
  return config_.dir + "/rank_" + std::to_string(rank) + "/" + timestamp_;
}

const char* DumpWriter::DeviceDir(uint32_t rank, int32_t device, std::string* dir) {
  *dir = RunDir(rank) + "/" + std::to_string(device);
  std::lock_guard lock(out_mu_);
  if (made_dirs_.count(*dir)) return nullptr;
  if (!MakeDirs(*dir)) return "cannot create the output directory";
  made_dirs_.insert(*dir);
  return nullptr;
}

bool DumpWriter::DiskHasRoom(const std::string& dir, uint64_t bytes) {
  struct statvfs st {};
  if (::statvfs(dir.c_str(), &st) != 0) return false;
  const uint64_t free_bytes = static_cast<uint64_t>(st.f_bavail) * st.f_frsize;
  const uint64_t need = std::max(config_.min_free_disk, 2 * bytes);
  if (free_bytes >= need) return true;
  on_fatal_("free disk space below MSPROBE_CAPTURE_MIN_FREE_DISK");
  return false;
}

// A long name is replaced by its hash, and "hashed,original" goes to mapping.csv (docs/kernel_dump.md §4.4).
std::string DumpWriter::PlaceName(const std::string& dir, const std::string& name) {
  if (name.size() + 4 <= kMaxFileName) return name;  // room for ".tmp"
  const std::string hashed = HashedFileName(name);
  AppendLine(dir + "/mapping.csv", "", hashed + "," + name + "\n");
  return hashed;
}

std::string DumpWriter::EncodePrefix(const CaptureRecord& r, uint64_t* data_bytes) {
  DumpHeader header;
  header.dump_time_us = r.time_us;
  header.op_name = OpName(r.op_type, r.seq);
  *data_bytes = 0;
  for (const CapturedSlot& s : r.slots) {
    DumpTensor t{ProtoDType(s.acl_dtype), ProtoFormat(s.acl_format), s.dims, s.size};
    (s.is_input ? header.inputs : header.outputs).push_back(std::move(t));
    *data_bytes += s.size;
  }
  const std::string encoded = EncodeDumpHeader(header);
  return EncodeHeaderLength(encoded.size()) + encoded;
}

bool DumpWriter::OpenTensorFile(const CaptureRecord& r, TensorFile* f, std::string* final_path, std::string* file,
                                uint64_t* bytes, const char** reason) {
  std::string dir;
  if ((*reason = DeviceDir(r.rank, r.device, &dir))) return false;
  uint64_t data_bytes = 0;
  const std::string prefix = r.prefix.empty() ? EncodePrefix(r, &data_bytes) : r.prefix;
  if (!r.prefix.empty()) {
    for (const CapturedSlot& s : r.slots) data_bytes += s.size;
  }
  *bytes = prefix.size() + data_bytes;
  if (!DiskHasRoom(dir, *bytes)) {
    *reason = "low disk space";
    return false;
  }
  const std::string name = PlaceName(
      dir, BinFileName(r.op_type, OpName(r.op_type, r.seq), r.task_id, r.stream ? r.stream->id : 0, r.time_us));
  *final_path = dir + "/" + name;
  *file = std::to_string(r.device) + "/" + name;
  f->tmp_path = *final_path + ".tmp";
  f->fd = ::open(f->tmp_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, kFileMode);
  if (f->fd < 0) {
    on_fatal_("cannot create an output file");
    *reason = "cannot create the file";
    return false;
  }
  if (!AppendTensor(f, prefix.data(), prefix.size())) {
    CloseTensorFile(f, *final_path, false);
    on_fatal_("writing an output file failed");
    *reason = "write failed";
    return false;
  }
  return true;
}

bool DumpWriter::AppendTensor(TensorFile* f, const void* data, uint64_t size) {
  const auto* p = static_cast<const char*>(data);
  if (DirectWanted(size)) {
    // head: up to the next aligned file offset; middle: whole aligned blocks; tail: the rest.
    const uint64_t head = (kDirectAlign - f->offset % kDirectAlign) % kDirectAlign;
    const uint64_t middle = size > head ? (size - head) / kDirectAlign * kDirectAlign : 0;
    if (middle > 0 && reinterpret_cast<uintptr_t>(p + head) % kDirectAlign == 0) {
      if (!PWriteAll(f->fd, p, head, f->offset)) return false;
      f->offset += head;
      p += head;
      size -= head;
      const uint64_t done = WriteDirect(f, p, middle);
      f->offset += done;
      f->direct_bytes += done;
      p += done;
      size -= done;
    }
  }
  if (!PWriteAll(f->fd, p, size, f->offset)) return false;
  f->offset += size;
  return true;
}

uint64_t DumpWriter::WriteDirect(TensorFile* f, const char* data, uint64_t size) {
  if (!f->direct_tried) {
    f->direct_tried = true;
    f->direct_fd = ::open(f->tmp_path.c_str(), O_WRONLY | O_DIRECT | O_CLOEXEC);
    // EINVAL: the filesystem (tmpfs, some FUSE and network ones) does not do O_DIRECT.
    if (f->direct_fd < 0 && errno == EINVAL) direct_refused_.store(true);
  }
  uint64_t done = 0;
  while (f->direct_fd >= 0 && done < size) {
    const uint64_t n = std::min(size - done, kDirectPiece);
    const ssize_t w = ::pwrite(f->direct_fd, data + done, n, static_cast<off_t>(f->offset + done));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0 || static_cast<uint64_t>(w) % kDirectAlign != 0) {
      // Refused (alignment the device wants is larger, memory O_DIRECT cannot pin, …) or failed: the
      // rest goes through the buffered fd, now and for every later file.
      if (w > 0) done += static_cast<uint64_t>(w);
      direct_refused_.store(true);
      ::close(f->direct_fd);
      f->direct_fd = -1;
      break;
    }
    done += static_cast<uint64_t>(w);
  }
  return done;
}

const char* DumpWriter::CloseTensorFile(TensorFile* f, const std::string& final_path, bool keep) {
  bool closed = true;
  if (f->direct_fd >= 0) closed = ::close(f->direct_fd) == 0;
  f->direct_fd = -1;
  closed = ::close(f->fd) == 0 && closed;
  f->fd = -1;
  const std::string tmp = final_path + ".tmp";
  if (keep && closed && ::rename(tmp.c_str(), final_path.c_str()) == 0) return nullptr;
  ::unlink(tmp.c_str());
  if (!keep) return nullptr;
  on_fatal_("writing an output file failed");
  return "write failed";
}

const char* DumpWriter::WriteTensors(const CaptureRecord& r, std::string* file, uint64_t* bytes,
                                     uint64_t* direct_bytes) {
  std::string final_path;
  const char* reason = nullptr;
  TensorFile f;
  if (!OpenTensorFile(r, &f, &final_path, file, bytes, &reason)) return reason;
  bool ok = true;
  for (const CapturedSlot& s : r.slots) {
    if (ok && s.size) ok = AppendTensor(&f, s.host, s.size);
  }
  *direct_bytes = f.direct_bytes;
  return CloseTensorFile(&f, final_path, ok);
}

const char* DumpWriter::WriteStats(const CaptureRecord& r, std::string* stats_json) {
  std::string dir;
  if (const char* err = DeviceDir(r.rank, r.device, &dir)) return err;
  if (!DiskHasRoom(dir, 0)) return "low disk space";
  const std::string op_name = OpName(r.op_type, r.seq);
  std::string rows;
  *stats_json = "[";
  for (const CapturedSlot& s : r.slots) {
    const int32_t dtype = ProtoDType(s.acl_dtype);
    const SlotStats st = ComputeSlotStats(dtype, s.host, s.size);
    const auto value = [&](double v) { return st.has_values ? Number(v) : std::string(); };
    const std::string cells[] = {CsvCell(SanitizeName(r.op_type)), CsvCell(SanitizeName(op_name)),
                                 std::to_string(r.task_id), std::to_string(r.stream ? r.stream->id : 0),
                                 std::to_string(r.time_us), s.is_input ? "input" : "output", std::to_string(s.index),
                                 std::to_string(s.size), std::string(ProtoDTypeName(dtype)),
                                 std::string(ProtoFormatName(ProtoFormat(s.acl_format))), CsvCell(ShapeText(s.dims)),
                                 value(st.max), value(st.min), value(st.mean), value(st.l2norm), std::to_string(st.nan),
                                 std::to_string(st.neg_inf), std::to_string(st.pos_inf)};
    for (const std::string& cell : cells) {
      rows.append(cell);
      rows.push_back(',');
    }
    rows.back() = '\n';
    JsonLine js;
    js.Str("io", s.is_input ? "input" : "output").Int("index", s.index).Str("dtype", ProtoDTypeName(dtype))
        .Ints("shape", s.dims).Int("size", static_cast<int64_t>(s.size));
    if (st.has_values) js.Num("max", st.max).Num("min", st.min).Num("mean", st.mean).Num("norm", st.l2norm);
    js.Int("nan", static_cast<int64_t>(st.nan)).Int("neg_inf", static_cast<int64_t>(st.neg_inf))
        .Int("pos_inf", static_cast<int64_t>(st.pos_inf));
    if (stats_json->size() > 1) stats_json->push_back(',');
    stats_json->append(js.Object());
  }
  *stats_json += "]";
  AppendLine(dir + "/statistic.csv", kStatsHeader, rows);
  return nullptr;
}

// Appends `text` under an exclusive flock (several processes may share a directory), writing
// `header` first when the file is empty. The file stays open for the next append.
void DumpWriter::AppendLine(const std::string& path, const std::string& header, const std::string& text) {
  std::lock_guard lock(out_mu_);
  auto it = append_fds_.find(path);
  if (it == append_fds_.end()) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, kFileMode);
    if (fd < 0) {
      on_fatal_("cannot open a csv/manifest file");
      return;
    }
    it = append_fds_.emplace(path, fd).first;
  }
  const int fd = it->second;
  ::flock(fd, LOCK_EX);
  bool ok = true;
  if (!header.empty() && ::lseek(fd, 0, SEEK_END) == 0) ok = WriteAll(fd, header.data(), header.size());
  ok = ok && WriteAll(fd, text.data(), text.size());
  ::flock(fd, LOCK_UN);
  if (!ok) on_fatal_("appending to a csv/manifest file failed");
}

void DumpWriter::ManifestLine(uint32_t rank, const std::string& json) {
  const std::string dir = RunDir(rank);
  {
    std::lock_guard lock(out_mu_);
    if (!made_dirs_.count(dir)) {
      if (!MakeDirs(dir)) return;
      made_dirs_.insert(dir);
    }
  }
  AppendLine(dir + "/manifest.jsonl", "", json + "\n");
}

int DumpWriter::OpenStreamed(uint32_t rank, int32_t device, std::string_view name, std::string* final_path) {
  std::string dir;
  if (DeviceDir(rank, device, &dir) || !DiskHasRoom(dir, 0)) return -1;
  *final_path = dir + "/" + PlaceName(dir, std::string(name));
  const std::string tmp = *final_path + ".tmp";
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, kFileMode);
  if (fd < 0) on_fatal_("cannot create an output file");
  return fd;
}

bool DumpWriter::AppendStreamed(int fd, const void* data, uint64_t size) { return WriteAll(fd, data, size); }

bool DumpWriter::CloseStreamed(int fd, const std::string& final_path, uint32_t rank, int32_t device,
                               uint64_t bytes) {
  const std::string tmp = final_path + ".tmp";
  if (::close(fd) != 0 || ::rename(tmp.c_str(), final_path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    on_fatal_("writing an output file failed");
    return false;
  }
  JsonLine line;
  line.Int("pid", ::getpid()).Int("rank", rank).Int("device", device).Str("source", "runtime")
      .Str("status", "written").Str("file", std::to_string(device) + "/" + final_path.substr(final_path.rfind('/') + 1))
      .Int("bytes", static_cast<int64_t>(bytes));
  ManifestLine(rank, line.Object());
  return true;
}

void DumpWriter::PrepareFork() {
  mu_.lock();
  out_mu_.lock();
}

void DumpWriter::ParentAfterFork() {
  out_mu_.unlock();
  mu_.unlock();
}

// The child has no writer thread and never writes: the queued records belong to the parent.
void DumpWriter::ChildAfterFork() {
  out_mu_.unlock();
  mu_.unlock();
  head_ = tail_ = nullptr;
  pool_.clear();
  pooled_bytes_ = 0;
  thread_started_ = false;
  outstanding_.store(0);
  in_use_ = 0;
  runtime_gone_.store(true);
}

}  // namespace msprobe::capture
