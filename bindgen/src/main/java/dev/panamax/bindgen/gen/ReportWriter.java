package dev.panamax.bindgen.gen;

import dev.panamax.bindgen.gen.BindingPlan.RawFunction;
import dev.panamax.bindgen.gen.BindingPlan.Skip;
import dev.panamax.bindgen.gen.BindingPlan.ThunkPlan;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

/** The report of one generation: what was bound in which layer, and every skip with its reason. */
final class ReportWriter {
    private ReportWriter() {}

    static String write(BindingPlan plan, int functions) {
        BindingPlan.Names n = plan.names();
        StringBuilder b = new StringBuilder();
        b.append("panamax bindgen report: ").append(plan.library()).append(" (").append(plan.sourceName()).append(")\n");
        b.append("package ").append(n.javaPackage()).append('\n');
        b.append("functions declared: ").append(functions).append('\n');
        b.append("raw layer ").append(n.raw()).append(": ").append(plan.rawFunctions().size()).append(" functions, ")
                .append(plan.constants().size()).append(" constants\n");
        Set<String> typed = plan.typedFunctions().stream().map(TypedFunction::name).collect(Collectors.toCollection(LinkedHashSet::new));
        b.append("typed layer ").append(n.typed()).append(": ").append(typed.size()).append(" functions (")
                .append(plan.typedFunctions().size()).append(" methods), exception ").append(n.exception()).append('\n');
        b.append("handles: ").append(plan.handles().size()).append(", structs and unions: ").append(plan.structs().size())
                .append(", callbacks: ").append(plan.callbacks().size()).append('\n');
        b.append("thunks: ").append(plan.thunks().size());
        if (!plan.thunks().isEmpty()) {
            b.append(" (").append(n.thunks()).append(", C glue pmx_thunks_").append(plan.glueUnit()).append(".c, library ")
                    .append(plan.glueLibraryFile()).append(')');
        }
        b.append("\n\nbound:\n");
        Set<String> thunks = plan.thunks().stream().map(ThunkPlan::name).collect(Collectors.toSet());
        for (RawFunction f : plan.rawFunctions()) {
            b.append("  ").append(f.name()).append("  tier=").append(f.tier().toLowerCase(Locale.ROOT))
                    .append(" raw").append(typed.contains(f.name()) ? " typed" : "").append(thunks.contains(f.name()) ? " thunk" : "")
                    .append('\n');
        }
        b.append("\nskipped: ").append(plan.skipped().isEmpty() ? "none" : "").append('\n');
        for (Skip s : plan.skipped()) {
            b.append("  ").append(s.function()).append(" [").append(s.layer()).append("]: ").append(s.reason()).append('\n');
        }
        return b.toString();
    }
}
