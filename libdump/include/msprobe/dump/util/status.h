// Status and Result<T>: how every library function reports an expected failure (bad input, missing
// file, unsupported format). Exceptions are kept for bugs and bad_alloc. The source (a path, a json
// key) is kept apart from the text so a CLI can print "<prog>: error: <source>: <message>".
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace msprobe {

enum class Code : uint8_t { kOk, kInvalidInput, kNotFound, kIOError, kUnsupported, kInternal };

class [[nodiscard]] Status {
 public:
  Status() = default;
  static Status Ok() { return {}; }
  static Status InvalidInput(std::string source, std::string message) {
    return {Code::kInvalidInput, std::move(source), std::move(message)};
  }
  static Status NotFound(std::string source, std::string message) {
    return {Code::kNotFound, std::move(source), std::move(message)};
  }
  static Status IOError(std::string source, std::string message) {
    return {Code::kIOError, std::move(source), std::move(message)};
  }
  static Status Unsupported(std::string source, std::string message) {
    return {Code::kUnsupported, std::move(source), std::move(message)};
  }
  static Status Internal(std::string source, std::string message) {
    return {Code::kInternal, std::move(source), std::move(message)};
  }

  bool ok() const { return code_ == Code::kOk; }
  Code code() const { return code_; }
  const std::string& source() const { return source_; }
  const std::string& message() const { return message_; }
  // "source: message", or just the message when there is no source.
  std::string ToString() const { return source_.empty() ? message_ : source_ + ": " + message_; }
  // The same failure attributed to another source (e.g. a pickle error re-attributed to its .pt file).
  Status WithSource(std::string source) const { return {code_, std::move(source), message_}; }

 private:
  Status(Code code, std::string source, std::string message)
      : code_(code), source_(std::move(source)), message_(std::move(message)) {}
  Code code_ = Code::kOk;
  std::string source_;
  std::string message_;
};

// A value or the Status that explains why there is none (the std::expected shape).
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}                      // NOLINT: implicit by design
  Result(Status status) : v_(std::move(status)) {}               // NOLINT: implicit by design
  bool ok() const { return std::holds_alternative<T>(v_); }
  const Status& status() const {
    static const Status kOk;
    return ok() ? kOk : std::get<Status>(v_);
  }
  T& value() & { return std::get<T>(v_); }
  const T& value() const& { return std::get<T>(v_); }
  T&& value() && { return std::get<T>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

 private:
  std::variant<T, Status> v_;
};

}  // namespace msprobe

#define MSP_CONCAT_INNER(a, b) a##b
#define MSP_CONCAT(a, b) MSP_CONCAT_INNER(a, b)

#define MSP_RETURN_IF_ERROR(expr)              \
  do {                                         \
    ::msprobe::Status msp_status_ = (expr);    \
    if (!msp_status_.ok()) return msp_status_; \
  } while (0)

#define MSP_ASSIGN_OR_RETURN_IMPL(tmp, lhs, expr) \
  auto tmp = (expr);                              \
  if (!tmp.ok()) return tmp.status();             \
  lhs = std::move(tmp).value()

// MSP_ASSIGN_OR_RETURN(auto x, ReadThing()) declares x from a Result or returns its Status.
#define MSP_ASSIGN_OR_RETURN(lhs, expr) \
  MSP_ASSIGN_OR_RETURN_IMPL(MSP_CONCAT(msp_result_, __LINE__), lhs, expr)
