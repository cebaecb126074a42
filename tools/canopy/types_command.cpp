#include <algorithm>
#include <iomanip>
#include <iostream>

#include "canopy/load/load.hpp"
#include "commands.hpp"

namespace canopy::cli {
namespace {

std::string describe_params(const node_type& type) {
    std::string text;
    for (const param_spec& spec : type.params) {
        if (!text.empty()) text += ", ";
        text += spec.name + ": " + std::string(spec.type_name());
        if (spec.output) {
            text += " (output)";
        } else if (!spec.default_value && spec.type != param_type::any) {
            text += " (required)";
        }
    }
    return text;
}

}  // namespace

void add_types_command(CLI::App& app, int& exit_code) {
    auto* command =
        app.add_subcommand("types", "List the node types files may use, with ids and arity");
    auto models = std::make_shared<std::string>();
    command->add_option("--models", *models,
                        "List instead the node types lenient loading learns from this tree "
                        "file (its node models, and how its nodes use unknown types)");
    add_plugin_option(*command);
    auto warnings_as_errors = std::make_shared<bool>(false);
    command->add_flag("--warnings-as-errors", *warnings_as_errors,
                      "With --models: fail on warnings in the file as on errors");
    command->callback([models, warnings_as_errors, &exit_code] {
        std::vector<diagnostic> problems;
        registry learned;
        if (!models->empty()) {
            learned = learn_node_types(*models, cli_registry(), problems);
            if (*warnings_as_errors) {
                for (diagnostic& d : problems) d.severity = diagnostic_severity::error;
            }
            print_diagnostics(problems);
            if (has_errors(problems)) {
                exit_code = 1;
                return;
            }
        }
        const registry& reg = models->empty() ? cli_registry() : learned;
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
