#include "trend/sqlite_db_internal.h"

#include <sqlite3.h>

#include <fmt/format.h>

namespace msprobe::compare::internal {
namespace {

Status SqliteError(const std::string& source, sqlite3* db, int code, std::string_view doing) {
  const char* message = db != nullptr ? sqlite3_errmsg(db) : sqlite3_errstr(code);
  return Status::IOError(source, fmt::format("sqlite: {}: {}", doing, message));
}

}  // namespace

void SqliteDb::Closer::operator()(sqlite3* db) const { sqlite3_close_v2(db); }
void SqliteStatement::Finalizer::operator()(sqlite3_stmt* stmt) const { sqlite3_finalize(stmt); }

Result<SqliteDb> SqliteDb::Open(const std::string& path, Mode mode, std::string source) {
  if (source.empty()) source = path;
  sqlite3* raw = nullptr;
  const int flags = mode == Mode::kWrite ? SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE : SQLITE_OPEN_READONLY;
  const int code = sqlite3_open_v2(path.c_str(), &raw, flags | SQLITE_OPEN_NOFOLLOW, nullptr);
  std::unique_ptr<sqlite3, Closer> db(raw);
  if (code != SQLITE_OK) return SqliteError(source, raw, code, "cannot open");
  SqliteDb out(std::move(db), std::move(source));
  // A file that is not a database fails here, at the first read, rather than at some later statement.
  MSP_RETURN_IF_ERROR(out.Exec(mode == Mode::kWrite ? "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF"
                                                    : "SELECT count(*) FROM sqlite_master"));
  return out;
}

SqliteDb::~SqliteDb() = default;

Status SqliteDb::Error(std::string_view doing) const { return SqliteError(source_, db_.get(), SQLITE_ERROR, doing); }

Status SqliteDb::Exec(std::string_view sql) {
  const std::string text(sql);
  const int code = sqlite3_exec(db_.get(), text.c_str(), nullptr, nullptr, nullptr);
  if (code != SQLITE_OK) return Error(fmt::format("{:.60}", text));
  return Status::Ok();
}

Result<SqliteStatement> SqliteDb::Prepare(std::string_view sql) {
  sqlite3_stmt* stmt = nullptr;
  const int code = sqlite3_prepare_v3(db_.get(), sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                                      &stmt, nullptr);
  if (code != SQLITE_OK) return Error(fmt::format("{:.60}", sql));
  return SqliteStatement(stmt, source_);
}

Status SqliteDb::Close() {
  sqlite3* db = db_.release();
  const int code = sqlite3_close(db);
  if (code != SQLITE_OK) {
    const Status error = SqliteError(source_, db, code, "cannot close");
    sqlite3_close_v2(db);
    return error;
  }
  return Status::Ok();
}

int64_t SqliteDb::LastInsertRowid() const { return sqlite3_last_insert_rowid(db_.get()); }
int SqliteDb::Changes() const { return sqlite3_changes(db_.get()); }

SqliteStatement::~SqliteStatement() = default;

void SqliteStatement::Bind(int index, int64_t value) { sqlite3_bind_int64(stmt_.get(), index, value); }
void SqliteStatement::Bind(int index, std::string_view text) {
  sqlite3_bind_text64(stmt_.get(), index, text.data(), text.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
}
void SqliteStatement::Bind(int index, std::optional<double> value) {
  if (value) {
    sqlite3_bind_double(stmt_.get(), index, *value);
  } else {
    sqlite3_bind_null(stmt_.get(), index);
  }
}
void SqliteStatement::BindNull(int index) { sqlite3_bind_null(stmt_.get(), index); }

Result<bool> SqliteStatement::Step() {
  const int code = sqlite3_step(stmt_.get());
  if (code == SQLITE_ROW) return true;
  if (code == SQLITE_DONE) return false;
  return SqliteError(source_, sqlite3_db_handle(stmt_.get()), code, fmt::format("{:.60}", sqlite3_sql(stmt_.get())));
}

Status SqliteStatement::Run() {
  Result<bool> row = Step();
  while (row.ok() && *row) row = Step();
  Reset();
  return row.status();
}

Status SqliteStatement::ForEachRow(const std::function<Status()>& on_row) {
  Status status;
  for (;;) {
    Result<bool> row = Step();
    if (!row.ok() || !*row) {
      status = row.status();
      break;
    }
    status = on_row();
    if (!status.ok()) break;
  }
  Reset();
  return status;
}

void SqliteStatement::Reset() { sqlite3_reset(stmt_.get()); }

bool SqliteStatement::IsNull(int column) const { return sqlite3_column_type(stmt_.get(), column) == SQLITE_NULL; }
int64_t SqliteStatement::Int64(int column) const { return sqlite3_column_int64(stmt_.get(), column); }
double SqliteStatement::Double(int column) const { return sqlite3_column_double(stmt_.get(), column); }
std::string_view SqliteStatement::Text(int column) const {
  const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt_.get(), column));
  if (text == nullptr) return {};
  return {text, static_cast<size_t>(sqlite3_column_bytes(stmt_.get(), column))};
}

}  // namespace msprobe::compare::internal
