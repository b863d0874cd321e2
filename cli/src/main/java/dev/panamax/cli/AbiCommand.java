package dev.panamax.cli;

import dev.panamax.bindgen.decl.Declarations;
import dev.panamax.bindgen.decl.DeclarationsException;
import dev.panamax.bindgen.decl.Function;
import dev.panamax.bindgen.gen.Bindgen;
import dev.panamax.core.abi.BlockLayout;
import dev.panamax.core.abi.Classification;
import dev.panamax.core.abi.MetaAbi;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/**
 * {@code panamax abi FILE.yaml FUNCTION}: one function's MetaABI classification as JSON, e.g.
 * {@code {"mode": "VOID_PTR", "leaf": "G", "block": {"size": 8, "align": 8, "return": null,
 * "params": [{"name": "p", "offset": 0, "size": 8}]}}}.
 */
@Command(name = "abi", description = "Print a declared function's MetaABI classification (mode, leaf, parameter block) as JSON.")
final class AbiCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE.yaml", description = "A declarations file; a relative path is relative to the"
            + " directory the command was run from.")
    String file;

    @Parameters(index = "1", paramLabel = "FUNCTION", description = "The function's name in that file.")
    String function;

    @Override
    public Integer call() {
        Path path;
        try {
            path = UserPaths.resolve("FILE.yaml", file, "the path of a declarations file");
        } catch (IllegalArgumentException e) {
            System.err.println("panamax abi: " + e.getMessage());
            return 2;
        }
        Declarations d;
        try {
            d = Bindgen.check(path);   // exactly what bindgen accepts
        } catch (DeclarationsException e) {
            System.err.println("panamax abi: " + e.getMessage());
            return 1;
        }
        Function f = d.function(function).orElse(null);
        if (f == null) {
            System.err.println("panamax abi: function '" + function + "' is not declared in " + path + "; declared: "
                    + d.functions().stream().map(Function::name).collect(Collectors.joining(", ")));
            return 1;
        }
        System.out.println(json(MetaAbi.classify(d.cFunction(f).type())));
        return 0;
    }

    static String json(Classification c) {
        BlockLayout b = c.block();
        StringBuilder s = new StringBuilder();
        s.append("{\"mode\": \"").append(c.mode()).append("\", \"leaf\": \"").append(c.leaf()).append("\", \"block\": {");
        s.append("\"size\": ").append(b.size()).append(", \"align\": ").append(b.align()).append(", \"return\": ");
        if (b.returnSlot() == null) s.append("null");
        else s.append("{\"offset\": ").append(b.returnSlot().offset()).append(", \"size\": ").append(b.returnSlot().size()).append('}');
        s.append(", \"params\": [");
        for (int i = 0; i < b.params().size(); i++) {
            BlockLayout.ParamSlot p = b.params().get(i);
            if (i > 0) s.append(", ");
            // parameter names are C identifiers (checked by the parser): nothing to escape
            s.append("{\"name\": \"").append(p.name()).append("\", \"offset\": ").append(p.offset())
                    .append(", \"size\": ").append(p.size()).append('}');
        }
        return s.append("]}}").toString();
    }
}
