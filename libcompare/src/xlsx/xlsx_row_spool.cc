#include "xlsx/xlsx_row_spool_internal.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

#include "table/rendered_rows_internal.h"
#include "xlsx/xlsx_cells_internal.h"

namespace msprobe::compare::internal {
namespace {

enum Kind : char { kText = 'T', kFloat = 'F', kInt = 'I', kBool = 'B' };

// resize + memcpy rather than append: GCC 12 misreads appends of a few bytes (-Wrestrict).
template <class T>
void Put(std::string* out, T value) {
  const size_t at = out->size();
  out->resize(at + sizeof value);
  std::memcpy(out->data() + at, &value, sizeof value);
}

template <class T>
T Get(const char** p) {
  T value;
  std::memcpy(&value, *p, sizeof value);
  *p += sizeof value;
  return value;
}

std::string Errno(std::string_view what) { return std::string(what) + ": " + std::strerror(errno); }

// An unnamed file in `dir`, or, where the file system has no O_TMPFILE, a named one unlinked at once.
int OpenUnnamed(const std::string& dir) {
  const int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
  if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)) return fd;
  std::string name = (std::filesystem::path(dir) / ".msprobe_spool.XXXXXX").string();
  const int named = ::mkostemp(name.data(), O_CLOEXEC);
  if (named >= 0) ::unlink(name.c_str());
  return named;
}

}  // namespace

void XlsxRowSpool::RowEncoder::Text(std::string_view text) {
  Put(out_, kText);
  Put(out_, static_cast<uint32_t>(text.size()));
  const size_t at = out_->size();
  out_->resize(at + text.size());
  std::memcpy(out_->data() + at, text.data(), text.size());
}

void XlsxRowSpool::RowEncoder::Value(const Cell& cell) {
  switch (cell.kind()) {
    case Cell::Kind::kText: Text(cell.text()); return;
    case Cell::Kind::kFloat: Put(out_, kFloat); Put(out_, cell.number()); return;
    case Cell::Kind::kInt: Put(out_, kInt); Put(out_, cell.integer()); return;
    case Cell::Kind::kBool: Put(out_, kBool); Put(out_, static_cast<uint8_t>(cell.boolean())); return;
  }
}

Result<XlsxRowSpool> XlsxRowSpool::Create(const std::string& output_path) {
  const std::filesystem::path parent = std::filesystem::path(output_path).parent_path();
  const int fd = OpenUnnamed(parent.empty() ? std::string(".") : parent.string());
  if (fd < 0) return Status::IOError(output_path, Errno("cannot create a temporary file for the workbook's rows"));
  XlsxRowSpool spool(output_path, fd);
  spool.offsets_.push_back(0);
  return spool;
}

XlsxRowSpool::XlsxRowSpool(XlsxRowSpool&& other) noexcept
    : path_(std::move(other.path_)), fd_(std::exchange(other.fd_, -1)), offsets_(std::move(other.offsets_)) {}

XlsxRowSpool::~XlsxRowSpool() {
  if (fd_ >= 0) ::close(fd_);
}

Status XlsxRowSpool::Append(size_t rows, const EncodeRow& encode) {
  constexpr size_t kBlockRows = 4096;
  return RenderRowsInOrder(
      0, rows, kBlockRows,
      [&](BlockRange range, RenderedRows* block) {
        RowEncoder encoder(&block->bytes);
        for (size_t row = range.first; row < range.second; ++row) {
          const size_t before = block->bytes.size();
          encode(row, &encoder);
          block->row_sizes.push_back(static_cast<uint32_t>(block->bytes.size() - before));
        }
      },
      [&](const RenderedRows& block) -> Status {
        for (size_t done = 0; done < block.bytes.size();) {
          const ssize_t n = ::write(fd_, block.bytes.data() + done, block.bytes.size() - done);
          if (n < 0 && errno == EINTR) continue;
          if (n <= 0) return Status::IOError(path_, Errno("cannot write the workbook's rows to a temporary file"));
          done += static_cast<size_t>(n);
        }
        const std::lock_guard<std::mutex> lock(offsets_mutex_);
        for (const uint32_t size : block.row_sizes) offsets_.push_back(offsets_.back() + size);
        return Status::Ok();
      });
}

size_t XlsxRowSpool::rows() const {
  const std::lock_guard<std::mutex> lock(offsets_mutex_);
  return offsets_.size() - 1;
}

Result<SpooledRows> XlsxRowSpool::Read(size_t first, size_t end) const {
  SpooledRows rows;
  rows.first_ = first;
  {
    const std::lock_guard<std::mutex> lock(offsets_mutex_);
    const auto at = offsets_.begin() + static_cast<std::ptrdiff_t>(first);
    rows.offsets_.assign(at, at + static_cast<std::ptrdiff_t>(end - first + 1));
  }
  rows.bytes_.resize(rows.offsets_.back() - rows.offsets_.front());
  for (size_t done = 0; done < rows.bytes_.size();) {
    const ssize_t n = ::pread(fd_, rows.bytes_.data() + done, rows.bytes_.size() - done,
                              static_cast<off_t>(rows.offsets_.front() + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return Status::IOError(path_, Errno("cannot read the workbook's rows back from a temporary file"));
    done += static_cast<size_t>(n);
  }
  return rows;
}

void SpooledRows::Decode(size_t row, uint32_t style, XlsxRowBatch* batch) const {
  const char* p = bytes_.data() + Begin(row) + 1;  // past the tag
  const char* const end = bytes_.data() + Begin(row + 1);
  for (uint32_t column = 0; p < end; ++column) {
    switch (*p++) {
      case kText: {
        const auto size = Get<uint32_t>(&p);
        AddXlsxText(batch, column, std::string_view(p, size), style);
        p += size;
        break;
      }
      case kFloat: AddXlsxCell(batch, column, Cell::Float(Get<double>(&p)), style); break;
      case kInt: AddXlsxCell(batch, column, Cell::Int(Get<int64_t>(&p)), style); break;
      case kBool: AddXlsxCell(batch, column, Cell::Bool(Get<uint8_t>(&p) != 0), style); break;
      default: return;  // not reached: we wrote the spool ourselves
    }
  }
}

}  // namespace msprobe::compare::internal
