// canopy::btcpp_sqlite: BT::SqliteLogger's database, read back with SQLite as Groot2 reads it.
#include <doctest/doctest.h>
#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "behaviortree_cpp/bt_factory.h"
#include "behaviortree_cpp/loggers/bt_sqlite_logger.h"
#include "behaviortree_cpp/xml_parsing.h"

namespace {

using rows = std::vector<std::vector<std::string>>;

// A database file in the temporary directory, removed (with SQLite's journal) at the end.
struct temporary_database {
    std::filesystem::path path;
    explicit temporary_database(const std::string& name)
        : path(std::filesystem::temp_directory_path() / name) {
        remove();
    }
    ~temporary_database() { remove(); }
    temporary_database(const temporary_database&) = delete;
    temporary_database& operator=(const temporary_database&) = delete;
    void remove() const {
        std::filesystem::remove(path);
        std::filesystem::remove(path.string() + "-journal");
    }
};

// Every row `sql` selects, each column as text ("NULL" for a null).
rows select(const std::filesystem::path& path, const std::string& sql) {
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(path.string().c_str(), &db, SQLITE_OPEN_READONLY, nullptr) ==
            SQLITE_OK);
    sqlite3_stmt* statement = nullptr;
    const int prepared = sqlite3_prepare_v2(db, sql.c_str(), -1, &statement, nullptr);
    INFO(sql, ": ", sqlite3_errmsg(db));
    REQUIRE(prepared == SQLITE_OK);
    rows result;
    while (sqlite3_step(statement) == SQLITE_ROW) {
        std::vector<std::string> row;
        for (int column = 0; column < sqlite3_column_count(statement); ++column) {
            const unsigned char* text = sqlite3_column_text(statement, column);
            row.emplace_back(text != nullptr ? reinterpret_cast<const char*>(text) : "NULL");
        }
        result.push_back(std::move(row));
    }
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return result;
}

std::string select_one(const std::filesystem::path& path, const std::string& sql) {
    const rows found = select(path, sql);
    REQUIRE(found.size() == 1);
    REQUIRE(found.front().size() == 1);
    return found.front().front();
}

constexpr const char* two_leaves_xml = R"(<root BTCPP_format="4">
  <BehaviorTree ID="Main">
    <Sequence><AlwaysSuccess name="first"/><AlwaysFailure name="second"/></Sequence>
  </BehaviorTree></root>)";

// (node_uid, state) of one session's transitions, in time order: the Sequence (UID 1) starts,
// first succeeds, second fails, both are reset, the Sequence fails and is reset after the tick.
const rows two_leaves_changes{{"1", "1"}, {"2", "2"}, {"3", "3"}, {"2", "0"},
                              {"3", "0"}, {"1", "3"}, {"1", "0"}};

std::string changes_of(const std::string& session) {
    return "SELECT node_uid, state FROM Transitions WHERE session_id = " + session +
           " ORDER BY timestamp";
}

}  // namespace

TEST_SUITE("btcpp sqlite logger") {
    TEST_CASE("records the tree's definition, its nodes and each change of a node's status") {
        BT::BehaviorTreeFactory factory;
        BT::Tree tree = factory.createTreeFromText(two_leaves_xml);
        const temporary_database file("canopy_sqlite_logger_definition.db3");
        {
            BT::SqliteLogger logger(tree, file.path);
            CHECK(tree.tickWhileRunning() == BT::NodeStatus::FAILURE);
        }
        const rows definitions = select(file.path,
                                        "SELECT session_id, date, xml_tree "
                                        "FROM Definitions");
        REQUIRE(definitions.size() == 1);
        const std::string session = definitions[0][0];
        CHECK(definitions[0][1].size() == std::string("YYYY-MM-DD HH:MM:SS").size());
        // The XML Groot2 shows, with the UIDs the transitions name.
        CHECK(definitions[0][2] == BT::WriteTreeToXML(tree, true, true));
        CHECK(definitions[0][2].find(R"(<AlwaysFailure name="second" _uid="3")") !=
              std::string::npos);

        const rows expected_nodes{
            {session, "Sequence::1", "1"}, {session, "first", "2"}, {session, "second", "3"}};
        CHECK(select(file.path,
                     "SELECT session_id, fullpath, node_uid FROM Nodes "
                     "ORDER BY node_uid") == expected_nodes);

        CHECK(select(file.path, changes_of(session)) == two_leaves_changes);
        CHECK(select_one(file.path,
                         "SELECT COUNT(*) FROM Transitions WHERE session_id != " + session) == "0");
        // Only the Sequence ran (for part of the tick): the rest have no duration. No callback
        // added data.
        const long long sequence_ran = std::stoll(select_one(
            file.path, "SELECT duration FROM Transitions WHERE node_uid = 1 AND state = 3"));
        CHECK(sequence_ran > 0);
        CHECK(sequence_ran < 10'000'000);
        CHECK(select_one(file.path,
                         "SELECT COUNT(*) FROM Transitions "
                         "WHERE duration != 0 AND NOT (node_uid = 1 AND state = 3)") == "0");
        CHECK(select_one(file.path, "SELECT COUNT(*) FROM Transitions WHERE extra_data != ''") ==
              "0");
        // Timestamps are microseconds since the epoch (the default TimestampType::absolute).
        const auto now = std::chrono::duration_cast<std::chrono::microseconds>(
                             std::chrono::system_clock::now().time_since_epoch())
                             .count();
        const long long first = std::stoll(select_one(file.path,
                                                      "SELECT MIN(timestamp) "
                                                      "FROM Transitions"));
        CHECK(first <= now);
        CHECK(first > now - 60'000'000);
    }

    TEST_CASE("records how long a node ran when it leaves RUNNING") {
        BT::BehaviorTreeFactory factory;
        BT::Tree tree = factory.createTreeFromText(R"(<root BTCPP_format="4">
          <BehaviorTree ID="Main">
            <Sequence><Sleep name="nap" msec="20"/><AlwaysSuccess name="after"/></Sequence>
          </BehaviorTree></root>)");
        const temporary_database file("canopy_sqlite_logger_duration.btdb");
        {
            BT::SqliteLogger logger(tree, file.path);
            CHECK(tree.tickWhileRunning(std::chrono::milliseconds(1)) == BT::NodeStatus::SUCCESS);
        }
        // nap (UID 2) goes IDLE -> RUNNING -> SUCCESS; its SUCCESS says how long it ran.
        const rows nap = select(file.path,
                                "SELECT state, duration FROM Transitions "
                                "WHERE node_uid = 2 ORDER BY timestamp");
        REQUIRE(nap.size() >= 2);
        CHECK(nap[0] == std::vector<std::string>{"1", "0"});
        CHECK(nap[1][0] == "2");
        CHECK(std::stoll(nap[1][1]) >= 20'000);
        // The Sequence ran at least as long as its child.
        const std::string sequence = select_one(
            file.path, "SELECT duration FROM Transitions WHERE node_uid = 1 AND state = 2");
        CHECK(std::stoll(sequence) >= std::stoll(nap[1][1]));
        CHECK(select_one(file.path,
                         "SELECT duration FROM Transitions "
                         "WHERE node_uid = 3 AND state = 2") == "0");
    }

    TEST_CASE("a logger empties the file it opens, unless it appends a session") {
        BT::BehaviorTreeFactory factory;
        BT::Tree tree = factory.createTreeFromText(two_leaves_xml);
        const temporary_database file("canopy_sqlite_logger_sessions.db3");
        auto record = [&](bool append) {
            BT::SqliteLogger logger(tree, file.path, append);
            tree.tickWhileRunning();
        };
        record(false);
        record(true);
        const rows sessions =
            select(file.path, "SELECT session_id FROM Definitions ORDER BY session_id");
        REQUIRE(sessions.size() == 2);
        CHECK(sessions[0] != sessions[1]);
        for (const auto& session : sessions) {
            CHECK(select(file.path, changes_of(session[0])) == two_leaves_changes);
            CHECK(select_one(file.path,
                             "SELECT COUNT(*) FROM Nodes WHERE session_id = " + session[0]) == "3");
        }
        // The second session's changes all come after the first's.
        CHECK(select_one(file.path, "SELECT MAX(timestamp) FROM Transitions WHERE session_id = " +
                                        sessions[0][0]) <
              select_one(file.path, "SELECT MIN(timestamp) FROM Transitions WHERE session_id = " +
                                        sessions[1][0]));

        record(false);
        const rows last = select(file.path, "SELECT session_id FROM Definitions");
        REQUIRE(last.size() == 1);
        CHECK(select_one(file.path, "SELECT COUNT(*) FROM Transitions") == "7");
        CHECK(select_one(file.path,
                         "SELECT COUNT(*) FROM Nodes WHERE session_id != " + last[0][0]) == "0");
    }

    TEST_CASE("appended sessions with relative timestamps keep distinct, increasing keys") {
        BT::BehaviorTreeFactory factory;
        BT::Tree tree = factory.createTreeFromText(two_leaves_xml);
        const temporary_database file("canopy_sqlite_logger_relative.db3");
        for (bool append : {false, true, true}) {
            BT::SqliteLogger logger(tree, file.path, append);
            logger.setTimestampType(BT::TimestampType::relative);
            tree.tickWhileRunning();
        }
        CHECK(select_one(file.path, "SELECT COUNT(*) FROM Definitions") == "3");
        CHECK(select_one(file.path, "SELECT COUNT(*) FROM Transitions") == "21");
        CHECK(select_one(file.path, "SELECT COUNT(DISTINCT session_id) FROM Transitions") == "3");
    }

    TEST_CASE("refuses a file whose extension Groot2 does not open") {
        BT::BehaviorTreeFactory factory;
        BT::Tree tree = factory.createTreeFromText(two_leaves_xml);
        const temporary_database file("canopy_sqlite_logger_refused.sqlite");
        CHECK_THROWS_WITH_AS(BT::SqliteLogger(tree, file.path),
                             doctest::Contains("must end in .db3 or .btdb"), BT::RuntimeError);
        CHECK_THROWS_AS(BT::SqliteLogger(tree, "no_extension"), BT::RuntimeError);
        CHECK_FALSE(std::filesystem::exists(file.path));
        CHECK_FALSE(std::filesystem::exists("no_extension"));
    }

    TEST_CASE("stores what the additional callback returns in extra_data") {
        BT::BehaviorTreeFactory factory;
        BT::Tree tree = factory.createTreeFromText(two_leaves_xml);
        const temporary_database file("canopy_sqlite_logger_extra.db3");
        {
            BT::SqliteLogger logger(tree, file.path);
            logger.setAdditionalCallback([](BT::Duration, const BT::TreeNode& node,
                                            BT::NodeStatus prev_status, BT::NodeStatus status) {
                return node.name() + ":" + BT::toStr(prev_status) + ">" + BT::toStr(status);
            });
            tree.tickWhileRunning();
        }
        const rows expected{{"2", "first:IDLE>SUCCESS"},
                            {"2", "first:SUCCESS>IDLE"},
                            {"3", "second:IDLE>FAILURE"},
                            {"3", "second:FAILURE>IDLE"}};
        CHECK(select(file.path,
                     "SELECT node_uid, extra_data FROM Transitions "
                     "WHERE node_uid != 1 ORDER BY node_uid, timestamp") == expected);
        CHECK(select_one(file.path,
                         "SELECT extra_data FROM Transitions "
                         "ORDER BY timestamp LIMIT 1") == "Sequence:IDLE>RUNNING");
    }

    TEST_CASE("flush and execSqlStatement act on every change heard so far") {
        BT::BehaviorTreeFactory factory;
        BT::Tree tree = factory.createTreeFromText(two_leaves_xml);
        const temporary_database file("canopy_sqlite_logger_statement.db3");
        {
            BT::SqliteLogger logger(tree, file.path);
            tree.tickWhileRunning();
            logger.flush();
            // Readable by another connection (Groot2's) while the logger is open.
            CHECK(select_one(file.path, "SELECT COUNT(*) FROM Transitions") == "7");
            tree.tickWhileRunning();
            logger.execSqlStatement("DELETE FROM Transitions WHERE node_uid = 2");
            CHECK_THROWS_WITH_AS(logger.execSqlStatement("SELECT * FROM Nowhere"),
                                 doctest::Contains("no such table: Nowhere"), BT::RuntimeError);
            tree.tickWhileRunning();
        }
        // Two ticks' changes without first's, then a third tick's in full.
        CHECK(select_one(file.path, "SELECT COUNT(*) FROM Transitions") == "17");
        CHECK(select_one(file.path, "SELECT COUNT(*) FROM Transitions WHERE node_uid = 2") == "2");
    }
}
