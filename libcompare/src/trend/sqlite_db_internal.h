// The trend database's access to SQLite (Debian's libsqlite3): a connection and prepared statements,
// their failures as Status naming the database file. Only trend/ uses SQLite.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "msprobe/dump/util/status.h"

struct sqlite3;
struct sqlite3_stmt;

namespace msprobe::compare::internal {

class SqliteStatement;

class SqliteDb {
 public:
  enum class Mode { kReadOnly, kWrite };
  // kWrite opens (or creates) the file to write a new database: no rollback journal, no syncing,
  // because the file is a temporary one that is thrown away unless it is complete (PendingOutput).
  static Result<SqliteDb> Open(const std::string& path, Mode mode, std::string source = "");
  SqliteDb(SqliteDb&&) noexcept = default;
  SqliteDb& operator=(SqliteDb&&) noexcept = default;
  ~SqliteDb();

  // Runs one or more statements without results.
  Status Exec(std::string_view sql);
  Result<SqliteStatement> Prepare(std::string_view sql);
  // Closes the connection, after every statement is gone; what it reports is an error.
  Status Close();
  // The rowid of the last row inserted on this connection.
  int64_t LastInsertRowid() const;
  // Rows changed by the last statement (0 when an INSERT OR IGNORE was ignored).
  int Changes() const;
  const std::string& source() const { return source_; }  // what errors name

 private:
  struct Closer {
    void operator()(sqlite3* db) const;
  };
  SqliteDb(std::unique_ptr<sqlite3, Closer> db, std::string source) : db_(std::move(db)), source_(std::move(source)) {}
  Status Error(std::string_view doing) const;

  std::unique_ptr<sqlite3, Closer> db_;
  std::string source_;
};

// A prepared statement: bind (1-based), step, read columns (0-based), reset to run again.
class SqliteStatement {
 public:
  SqliteStatement(SqliteStatement&&) noexcept = default;
  SqliteStatement& operator=(SqliteStatement&&) noexcept = default;
  ~SqliteStatement();

  void Bind(int index, int64_t value);
  void Bind(int index, std::string_view text);  // copied by SQLite
  void Bind(int index, std::optional<double> value);  // nullopt: NULL
  void BindNull(int index);
  // Runs one step: true while it yields a row, false when done.
  Result<bool> Step();
  // Steps to completion and resets the statement for its next run.
  Status Run();
  // Calls `on_row` at each row (read the columns in it), stopping at its first error; then resets.
  Status ForEachRow(const std::function<Status()>& on_row);
  void Reset();

  bool IsNull(int column) const;
  int64_t Int64(int column) const;
  double Double(int column) const;
  std::string_view Text(int column) const;  // valid until the next step

 private:
  struct Finalizer {
    void operator()(sqlite3_stmt* stmt) const;
  };
  SqliteStatement(sqlite3_stmt* stmt, std::string source) : stmt_(stmt), source_(std::move(source)) {}

  std::unique_ptr<sqlite3_stmt, Finalizer> stmt_;
  std::string source_;
  friend class SqliteDb;
};

}  // namespace msprobe::compare::internal
