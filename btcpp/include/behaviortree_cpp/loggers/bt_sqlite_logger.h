#pragma once

// BT::SqliteLogger: records a tree and every status change of its nodes in an SQLite
// database, in BehaviorTree.CPP 4's tables, which Groot2 opens (a `.db3` or `.btdb` file):
//
//   Definitions (session_id INTEGER PRIMARY KEY AUTOINCREMENT, date TEXT NOT NULL,
//                xml_tree TEXT NOT NULL)
//       one row per recording: its local date and the tree's XML as WriteTreeToXML writes it
//       (each node with its `_uid`);
//   Nodes       (session_id INTEGER NOT NULL, fullpath VARCHAR, node_uid INTEGER NOT NULL)
//       each node of the recorded tree: its fullPath() and UID();
//   Transitions (timestamp INTEGER PRIMARY KEY NOT NULL, session_id INTEGER NOT NULL,
//                node_uid INTEGER NOT NULL, duration INTEGER, state INTEGER NOT NULL,
//                extra_data VARCHAR)
//       each change: when (microseconds, as the logger's TimestampType gives them, made
//       strictly increasing since they are the key), the node, how long it ran when it leaves
//       RUNNING (microseconds, else 0), its new NodeStatus as a number, and what the
//       additional callback returned ('' without one).
//
// A new file, or one opened without `append`, holds only this recording; with `append`, the
// recording is one more session beside those already there.

#include <filesystem>
#include <functional>
#include <memory>
#include <string>

#include "behaviortree_cpp/bt_factory.h"
#include "behaviortree_cpp/loggers/abstract_logger.h"

namespace BT {

class SqliteLogger : public StatusChangeLogger {
public:
    /// Writes the tree's definition at once; the changes from a thread of the logger's own.
    /// @param append  keep the sessions already in the file, rather than emptying its tables
    /// @warning throws RuntimeError unless `file` ends in ".db3" or ".btdb" (Groot2 opens only
    /// those) and is an SQLite database that can be written, or can be made one.
    SqliteLogger(const Tree& tree, const std::filesystem::path& file, bool append = false);
    SqliteLogger(const SqliteLogger&) = delete;
    SqliteLogger& operator=(const SqliteLogger&) = delete;
    SqliteLogger(SqliteLogger&&) = delete;
    SqliteLogger& operator=(SqliteLogger&&) = delete;
    /// Writes the changes heard so far and closes the database.
    ~SqliteLogger() override;

    /// Text for a transition's `extra_data`, given what callback() is given; called on the
    /// thread that reports the change.
    using ExtraCallback =
        std::function<std::string(Duration, const TreeNode&, NodeStatus, NodeStatus)>;
    /// @warning set it before the tree ticks, or between ticks on the thread that ticks.
    void setAdditionalCallback(ExtraCallback func);

    void callback(Duration timestamp, const TreeNode& node, NodeStatus prev_status,
                  NodeStatus status) override;

    /// Runs `statement` (SQL, one or more statements) on the database, after the changes heard
    /// so far are written; what it selects is not returned.
    /// @warning throws RuntimeError with SQLite's message when it fails.
    void execSqlStatement(const std::string& statement);

    /// Returns once the changes heard so far are in the database.
    /// @warning throws RuntimeError if the writer thread could not write some of them.
    void flush() override;

private:
    struct Pimpl;
    std::unique_ptr<Pimpl> _p;
};

}  // namespace BT
