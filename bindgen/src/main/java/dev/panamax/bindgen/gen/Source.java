package dev.panamax.bindgen.gen;

import java.util.List;

/** A Java source file being written: the generated-file header, a package, imports, indented lines. */
final class Source {
    /** First line of every generated Java file; also how stale generated files are recognised. */
    static final String HEADER = "// MACHINE GENERATED FILE, DO NOT EDIT: panamax bindgen from ";

    private final StringBuilder text = new StringBuilder();
    private int indent;

    /** A fragment: lines only, no header, package or imports, to be spliced into a file with {@link #append}. */
    Source() {
    }

    /** Appends {@code fragment}'s lines at this source's indentation. */
    Source append(Source fragment) {
        String t = fragment.text.toString();
        if (t.isEmpty()) return this;
        for (String l : t.substring(0, t.length() - 1).split("\n", -1)) line(l);
        return this;
    }

    /** Lines written so far (for a fragment: how many statements and braces it holds). */
    int lines() {
        return (int) text.chars().filter(c -> c == '\n').count();
    }

    Source(BindingPlan plan, List<String> imports) {
        text.append(HEADER).append(plan.sourceName()).append('\n');
        text.append("package ").append(plan.names().javaPackage()).append(";\n\n");
        String group = null;
        for (String i : new java.util.TreeSet<>(imports)) {
            String g = i.substring(0, i.indexOf('.'));
            if (group != null && !g.equals(group)) text.append('\n');
            group = g;
            text.append("import ").append(i).append(";\n");
        }
        if (!imports.isEmpty()) text.append('\n');
    }

    /** Appends a line at the current indentation (an empty string gives an empty line). */
    Source line(String s) {
        if (!s.isEmpty()) text.repeat("    ", indent).append(s);
        text.append('\n');
        return this;
    }

    /** Appends a line and indents what follows. */
    Source open(String s) {
        line(s);
        indent++;
        return this;
    }

    /** Outdents, then appends a line. */
    Source close(String s) {
        indent--;
        return line(s);
    }

    /** Outdents for one line ({@code } else {}, {@code } catch (..) {}), then indents again. */
    Source mid(String s) {
        indent--;
        line(s);
        indent++;
        return this;
    }

    /** A javadoc comment of one or more lines. */
    Source doc(String... lines) {
        if (lines.length == 1 && lines[0].length() < 100) return line("/** " + lines[0] + " */");
        line("/**");
        for (String l : lines) line(l.isEmpty() ? " *" : " * " + l);
        return line(" */");
    }

    @Override
    public String toString() {
        return text.toString();
    }
}
