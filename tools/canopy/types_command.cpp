#include <algorithm>
#include <iomanip>
#include <iostream>

#include "commands.hpp"

namespace canopy::cli {
namespace {

std::string describe_params(const node_type& type) {
    std::string text;
    for (const param_spec& spec : type.params) {
        if (!text.empty()) text += ", ";
        text += spec.name + ": " + std::string(to_string(spec.type));
        if (spec.output) {
            text += " (output)";
        } else if (!spec.default_value) {
            text += " (required)";
        }
    }
    return text;
}

}  // namespace

void add_types_command(CLI::App& app, int& exit_code) {
    auto* command =
        app.add_subcommand("types", "List the node types files may use, with ids and arity");
    command->callback([&exit_code] {
        const registry& reg = cli_registry();
        std::size_t width = 4;
        for (const node_type& type : reg.types()) width = std::max(width, type.name.size());
        for (const auto& alias : reg.aliases()) width = std::max(width, alias.first.size());
        std::cout << std::setw(5) << "id"
                  << "  " << std::left << std::setw(static_cast<int>(width)) << "name"
                  << "  " << std::setw(10) << "arity"
                  << "  params" << std::right << '\n';
        for (const node_type& type : reg.types()) {
            std::cout << std::setw(5) << (type.id ? std::to_string(*type.id) : "-") << "  "
                      << std::left << std::setw(static_cast<int>(width)) << type.name << "  ";
            std::string params = describe_params(type);
            if (params.empty()) {
                std::cout << to_string(type.arity);
            } else {
                std::cout << std::setw(10) << to_string(type.arity) << "  " << params;
            }
            std::cout << std::right << '\n';
        }
        for (const auto& [alias, target] : reg.aliases()) {
            std::cout << std::setw(5) << ""
                      << "  " << std::left << std::setw(static_cast<int>(width)) << alias
                      << "  alias of " << target << std::right << '\n';
        }
        exit_code = std::cout ? 0 : 1;
    });
}

}  // namespace canopy::cli
