// SqliteLogger: BehaviorTree.CPP 4's SQLite recording (the tables in bt_sqlite_logger.h). The
// thread that ticks only queues each change; a writer thread of the logger's own inserts them,
// a batch per transaction, so that a tick never waits for the disk.

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <iostream>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include "behaviortree_cpp/loggers/bt_sqlite_logger.h"
#include "behaviortree_cpp/xml_parsing.h"

namespace BT {

namespace {

// The tables as BehaviorTree.CPP 4.10 makes them: Groot2 reads these columns by name.
constexpr const char* schema =
    "CREATE TABLE IF NOT EXISTS Definitions ("
    " session_id INTEGER PRIMARY KEY AUTOINCREMENT,"
    " date TEXT NOT NULL,"
    " xml_tree TEXT NOT NULL);"
    "CREATE TABLE IF NOT EXISTS Nodes ("
    " session_id INTEGER NOT NULL,"
    " fullpath VARCHAR,"
    " node_uid INTEGER NOT NULL);"
    "CREATE TABLE IF NOT EXISTS Transitions ("
    " timestamp INTEGER PRIMARY KEY NOT NULL,"
    " session_id INTEGER NOT NULL,"
    " node_uid INTEGER NOT NULL,"
    " duration INTEGER,"
    " state INTEGER NOT NULL,"
    " extra_data VARCHAR);";

struct database_closer {
    // _v2: closes once the last statement is finalized, whatever the order they go in.
    void operator()(sqlite3* db) const { sqlite3_close_v2(db); }
};
using database_ptr = std::unique_ptr<sqlite3, database_closer>;

struct statement_finalizer {
    void operator()(sqlite3_stmt* statement) const { sqlite3_finalize(statement); }
};
using statement_ptr = std::unique_ptr<sqlite3_stmt, statement_finalizer>;

void execute(sqlite3* db, const std::string& sql) {
    char* message = nullptr;
    if (sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
        const std::string text = message != nullptr ? message : sqlite3_errmsg(db);
        sqlite3_free(message);
        throw RuntimeError("SqliteLogger: ", text, " (in \"", sql, "\")");
    }
}

statement_ptr prepare(sqlite3* db, const char* sql) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(db, sql, -1, &statement, nullptr) != SQLITE_OK)
        throw RuntimeError("SqliteLogger: ", sqlite3_errmsg(db), " (in \"", sql, "\")");
    return statement_ptr(statement);
}

// Runs a prepared statement to its end and readies it for new values.
void run(sqlite3* db, sqlite3_stmt* statement) {
    int result = SQLITE_ROW;
    while (result == SQLITE_ROW) result = sqlite3_step(statement);
    sqlite3_reset(statement);
    if (result != SQLITE_DONE) throw RuntimeError("SqliteLogger: ", sqlite3_errmsg(db));
}

void bind_text(sqlite3_stmt* statement, int column, const std::string& text) {
    sqlite3_bind_text(statement, column, text.data(), static_cast<int>(text.size()),
                      SQLITE_TRANSIENT);
}

}  // namespace

struct SqliteLogger::Pimpl {
    struct Transition {
        std::int64_t timestamp;  // microseconds, the table's key
        std::uint16_t node_uid;
        std::int64_t duration;  // microseconds
        NodeStatus status;
        std::string extra_data;
    };

    database_ptr db;  // first in, last out: the statements below are finalized before it
    statement_ptr insert_transition;
    std::int64_t session_id = 0;
    ExtraCallback extra_data;

    // What the ticking threads hand the writer, and what it tells back.
    std::mutex queue_mutex;
    std::condition_variable work_ready;
    std::condition_variable work_done;
    std::vector<Transition> queue;
    std::uint64_t queued = 0;   // transitions ever queued
    std::uint64_t written = 0;  // of which the writer is done with (in the database or failed)
    std::string write_error;    // the first the writer met since flush() last reported one
    bool stopping = false;
    std::int64_t last_timestamp = 0;
    std::unordered_map<std::uint16_t, std::int64_t> running_since;  // node UID -> timestamp

    // The writer's transactions and execSqlStatement take turns on the connection.
    std::mutex db_mutex;
    std::thread writer;

    ~Pimpl() { stop_writer(); }

    void write_loop() {
        std::vector<Transition> batch;
        std::unique_lock<std::mutex> lock(queue_mutex);
        for (;;) {
            work_ready.wait(lock, [&] { return !queue.empty() || stopping; });
            if (queue.empty()) return;  // stopping, and everything queued is written
            batch.clear();
            std::swap(batch, queue);
            lock.unlock();
            std::string error = insert(batch);
            lock.lock();
            written += batch.size();
            if (write_error.empty()) write_error = std::move(error);
            work_done.notify_all();
        }
    }

    // Inserts `batch` in one transaction; the error, if it failed.
    std::string insert(const std::vector<Transition>& batch) {
        const std::lock_guard<std::mutex> lock(db_mutex);
        sqlite3* connection = db.get();
        sqlite3_stmt* statement = insert_transition.get();
        try {
            execute(connection, "BEGIN");
            for (const Transition& change : batch) {
                sqlite3_bind_int64(statement, 1, change.timestamp);
                sqlite3_bind_int64(statement, 2, session_id);
                sqlite3_bind_int(statement, 3, change.node_uid);
                sqlite3_bind_int64(statement, 4, change.duration);
                sqlite3_bind_int(statement, 5, static_cast<int>(change.status));
                bind_text(statement, 6, change.extra_data);
                run(connection, statement);
            }
            execute(connection, "COMMIT");
            return {};
        } catch (const std::exception& error) {
            sqlite3_exec(connection, "ROLLBACK", nullptr, nullptr, nullptr);
            return error.what();
        }
    }

    // Blocks until the writer is done with every transition queued so far.
    void wait_until_written() {
        std::unique_lock<std::mutex> lock(queue_mutex);
        const std::uint64_t target = queued;
        work_done.wait(lock, [&] { return written >= target; });
    }

    void stop_writer() {
        if (!writer.joinable()) return;
        {
            const std::lock_guard<std::mutex> lock(queue_mutex);
            stopping = true;
        }
        work_ready.notify_one();
        writer.join();
    }
};

SqliteLogger::SqliteLogger(const Tree& tree, const std::filesystem::path& file, bool append)
    : _p(std::make_unique<Pimpl>()) {
    const std::filesystem::path extension = file.extension();
    if (extension != ".db3" && extension != ".btdb")
        throw RuntimeError("SqliteLogger: '", file.string(),
                           "' must end in .db3 or .btdb, the extensions Groot2 opens");
    enableTransitionToIdle(true);

    sqlite3* opened = nullptr;
    const int result = sqlite3_open_v2(file.string().c_str(), &opened,
                                       SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    _p->db.reset(opened);  // SQLite gives a handle even when it fails, for the message
    if (result != SQLITE_OK)
        throw RuntimeError("SqliteLogger: cannot open '", file.string(),
                           "': ", opened != nullptr ? sqlite3_errmsg(opened) : "out of memory");
    sqlite3* db = _p->db.get();
    // Groot2, or a script, may be reading the file: wait for it a moment rather than fail.
    sqlite3_busy_timeout(db, 1000);
    execute(db, schema);

    // The session: all of it or none, so that a failure leaves the file as it was.
    execute(db, "BEGIN");
    try {
        if (!append)
            execute(db,
                    "DELETE FROM Transitions; DELETE FROM Definitions; "
                    "DELETE FROM Nodes;");
        const statement_ptr definition = prepare(
            db, "INSERT INTO Definitions (date, xml_tree) VALUES (datetime('now','localtime'), ?)");
        bind_text(definition.get(), 1, WriteTreeToXML(tree, true, true));
        run(db, definition.get());
        _p->session_id = sqlite3_last_insert_rowid(db);

        const statement_ptr node_row = prepare(db, "INSERT INTO Nodes VALUES (?, ?, ?)");
        for (const auto& use : tree.subtrees) {
            for (const TreeNode::Ptr& node : use->nodes) {
                sqlite3_bind_int64(node_row.get(), 1, _p->session_id);
                bind_text(node_row.get(), 2, node->fullPath());
                sqlite3_bind_int(node_row.get(), 3, node->UID());
                run(db, node_row.get());
            }
        }
        // Timestamps are the key of Transitions: this session's start after the others'
        // (which only relative timestamps, or a clock set back, would not).
        const statement_ptr latest = prepare(db, "SELECT MAX(timestamp) FROM Transitions");
        if (sqlite3_step(latest.get()) == SQLITE_ROW)
            _p->last_timestamp = sqlite3_column_int64(latest.get(), 0);
        execute(db, "COMMIT");
    } catch (...) {
        sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
    _p->insert_transition = prepare(db, "INSERT INTO Transitions VALUES (?, ?, ?, ?, ?, ?)");

    _p->writer = std::thread([pimpl = _p.get()] { pimpl->write_loop(); });
    subscribeToTreeChanges(tree.rootNode());
}

SqliteLogger::~SqliteLogger() {
    unsubscribeFromTreeChanges();
    try {
        SqliteLogger::flush();  // this class's, as a destructor calls it
        _p->stop_writer();
        const std::lock_guard<std::mutex> lock(_p->db_mutex);
        execute(_p->db.get(), "PRAGMA optimize");
    } catch (const std::exception& error) {
        std::cerr << error.what() << std::endl;
    }
}

void SqliteLogger::setAdditionalCallback(ExtraCallback func) {
    _p->extra_data = std::move(func);
}

void SqliteLogger::callback(Duration timestamp, const TreeNode& node, NodeStatus prev_status,
                            NodeStatus status) {
    std::string extra_data;
    if (_p->extra_data) extra_data = _p->extra_data(timestamp, node, prev_status, status);
    const std::int64_t heard =
        std::chrono::duration_cast<std::chrono::microseconds>(timestamp).count();

    const std::lock_guard<std::mutex> lock(_p->queue_mutex);
    // Two changes in one microsecond still need two keys.
    const std::int64_t stamp = std::max(_p->last_timestamp + 1, heard);
    _p->last_timestamp = stamp;
    std::int64_t duration = 0;
    if (status == NodeStatus::RUNNING) {
        if (prev_status != NodeStatus::RUNNING) _p->running_since[node.UID()] = stamp;
    } else if (prev_status == NodeStatus::RUNNING) {
        const auto since = _p->running_since.find(node.UID());
        if (since != _p->running_since.end()) {
            duration = stamp - since->second;
            _p->running_since.erase(since);
        }
    }
    // The writer waits only on an empty queue: one wake-up per batch, not per change.
    const bool wake_writer = _p->queue.empty();
    _p->queue.push_back({stamp, node.UID(), duration, status, std::move(extra_data)});
    ++_p->queued;
    if (wake_writer) _p->work_ready.notify_one();
}

void SqliteLogger::execSqlStatement(const std::string& statement) {
    _p->wait_until_written();
    const std::lock_guard<std::mutex> lock(_p->db_mutex);
    execute(_p->db.get(), statement);
}

void SqliteLogger::flush() {
    _p->wait_until_written();
    std::string error;
    {
        const std::lock_guard<std::mutex> lock(_p->queue_mutex);
        std::swap(error, _p->write_error);
    }
    if (!error.empty())
        throw RuntimeError("SqliteLogger: some transitions could not be written: ", error);
    const std::lock_guard<std::mutex> lock(_p->db_mutex);
    sqlite3_db_cacheflush(_p->db.get());
}

}  // namespace BT
