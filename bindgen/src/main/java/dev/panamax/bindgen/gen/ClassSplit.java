package dev.panamax.bindgen.gen;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToIntFunction;

/**
 * How generated members are cut into classes that the JVM accepts. A class file holds at most 65,535
 * constant-pool entries and 65,535 methods, and a method at most 65,535 bytes of code, the static
 * initializer included: a raw class of 2,000 downcall handles initialized in one {@code <clinit>} is
 * already "code too large", and 20,000 functions are "too many constants". bindgen estimates what each
 * member costs and starts a new class before an estimate passes a budget set well below the limit.
 *
 * <p>The estimates are upper bounds of what javac emits for the generated shapes:
 * <ul>
 * <li>{@link #POOL_BUDGET}: constant-pool entries of a class of methods (a method's name, its
 *     descriptor, the references it makes, the strings it passes);</li>
 * <li>{@link #INIT_BUDGET}: bytes of a static initializer that declares downcalls (per field: the
 *     symbol, the builder calls, one array store per parameter layout).</li>
 * </ul>
 */
final class ClassSplit {
    /** Constant-pool entries a generated class may use by estimate (the JVM's limit is 65,535). */
    static final int POOL_BUDGET = 40_000;
    /** Bytes of static initializer a generated class may use by estimate (the JVM's limit is 65,535). */
    static final int INIT_BUDGET = 32_000;
    /**
     * Downcalls declared by one holder class at most: its first use declares them all (no symbol is
     * looked up and nothing is linked until each one's first call), so a program that calls a few
     * functions of a large library declares a few holders' worth.
     */
    static final int HOLDER_FUNCTIONS = 256;

    private ClassSplit() {}

    /**
     * {@code items} in order, cut into consecutive runs whose weights add up to at most {@code budget}
     * and that hold at most {@code maxCount} items; an item heavier than the budget gets a run of its own.
     * Never empty: no items give one empty run.
     */
    static <T> List<List<T>> split(List<T> items, ToIntFunction<T> weight, int budget, int maxCount) {
        List<List<T>> runs = new ArrayList<>();
        List<T> run = new ArrayList<>();
        long used = 0;
        for (T item : items) {
            int w = weight.applyAsInt(item);
            if (!run.isEmpty() && (used + w > budget || run.size() >= maxCount)) {
                runs.add(List.copyOf(run));
                run = new ArrayList<>();
                used = 0;
            }
            run.add(item);
            used += w;
        }
        runs.add(List.copyOf(run));
        return List.copyOf(runs);
    }

    /** Static-initializer bytes of one downcall field declared with {@code params} parameter layouts. */
    static int downcallInitBytes(int params) {
        return 40 + 8 * params;
    }

    /**
     * The name of part {@code i} (from 0) of a public class cut into {@code parts}: the last part is the class
     * itself ({@code top}), the others {@code top + "Part" + (i + 1)}, each extending the one before. Static
     * members (methods, constants, nested types) are inherited, so every one of them is reached through
     * {@code top}: {@code Scale.sc_f19000()} whichever part declares it.
     */
    static String partName(String top, int i, int parts) {
        return i == parts - 1 ? top : top + "Part" + (i + 1);
    }

    /**
     * Opens part {@code i} of {@code parts} of {@code top}: the last part is {@code public final}, the others
     * {@code public abstract sealed}, each permitting only the next, with a package-private constructor (no
     * instances, no subclasses but the chain). Public, so that the methods a part declares stay callable by
     * reflection and method handles through {@code top}.
     */
    static void openPart(Source s, String top, int i, int parts) {
        String name = partName(top, i, parts);
        String ext = i == 0 ? "" : " extends " + partName(top, i - 1, parts);
        if (i == parts - 1) {
            s.open("public final class " + name + ext + " {");
            s.line("private " + name + "() {}");
        } else {
            s.open("public abstract sealed class " + name + ext + " permits " + partName(top, i + 1, parts) + " {");
            s.line(name + "() {}");
        }
    }

    /** The javadoc line of a part below the top class: what it is and where its members are used from. */
    static String partDoc(String top, int i, int parts) {
        return "Part " + (i + 1) + " of " + parts + " of {@link " + top + "} (a class file holds only so many members): use its"
                + " members through {@link " + top + "}.";
    }
}
