// Stands in for the script language (canopy/run/script.hpp) until its implementation lands:
// parses nothing but `name := literal` / `name = literal` statements, and a compiled script
// does nothing. Removed when the language is merged.
#include <cctype>

#include "canopy/run/script.hpp"

namespace canopy {

struct parsed_script::syntax {
    std::string text;
    std::vector<script_assignment> assignments;
    std::vector<std::string> values;
};

std::variant<parsed_script, script_problem> parsed_script::parse(std::string_view text) {
    auto tree = std::make_unique<syntax>();
    tree->text = std::string(text);
    std::size_t at = 0;
    while (at < text.size()) {
        std::size_t end = text.find(';', at);
        if (end == std::string_view::npos) end = text.size();
        std::string_view statement = text.substr(at, end - at);
        const std::size_t op = statement.find('=');
        if (op != std::string_view::npos && op > 0 &&
            (op + 1 >= statement.size() || statement[op + 1] != '=')) {
            const bool creates = statement[op - 1] == ':';
            std::size_t name_end = creates ? op - 1 : op;
            std::size_t begin = 0;
            while (begin < name_end && statement[begin] == ' ') ++begin;
            while (name_end > begin && statement[name_end - 1] == ' ') --name_end;
            std::string value(statement.substr(op + 1));
            while (!value.empty() && value.front() == ' ') value.erase(0, 1);
            tree->assignments.push_back({std::string(statement.substr(begin, name_end - begin)),
                                         creates, at + begin, tree->assignments.size()});
            tree->values.push_back(value);
        }
        if (statement.find('#') != std::string_view::npos) {
            return script_problem{at + statement.find('#'), "unexpected '#'"};
        }
        at = end + 1;
    }
    return parsed_script(std::move(tree));
}

parsed_script::parsed_script(std::unique_ptr<syntax> tree) : syntax_(std::move(tree)) {}
parsed_script::parsed_script(parsed_script&&) noexcept = default;
parsed_script& parsed_script::operator=(parsed_script&&) noexcept = default;
parsed_script::~parsed_script() = default;

const std::vector<script_assignment>& parsed_script::assignments() const noexcept {
    return syntax_->assignments;
}
const std::string& parsed_script::text() const noexcept {
    return syntax_->text;
}

std::optional<param_type> parsed_script::value_type(std::size_t index,
                                                    const script_scope& scope) const {
    const std::string& value = syntax_->values[index];
    if (value.empty()) return std::nullopt;
    if (value.front() == '\'') return param_type::string;
    if (value == "true" || value == "false") return param_type::boolean;
    if (std::isdigit(static_cast<unsigned char>(value.front())) != 0) {
        return value.find('.') != std::string::npos ? param_type::number : param_type::integer;
    }
    if (auto key = scope.find_key(value)) return key->type;
    return std::nullopt;
}

struct script::program {
    std::string text;
};

std::variant<std::shared_ptr<const script>, script_problem> script::compile(
    const parsed_script& parsed, const script_scope&) {
    return std::shared_ptr<const script>(
        new script(std::make_unique<program>(program{parsed.text()})));
}

script::script(std::unique_ptr<program> code) : program_(std::move(code)) {}
script::~script() = default;
void script::run(blackboard) const {}
bool script::test(blackboard) const {
    return false;
}
const std::string& script::text() const noexcept {
    return program_->text;
}

}  // namespace canopy
