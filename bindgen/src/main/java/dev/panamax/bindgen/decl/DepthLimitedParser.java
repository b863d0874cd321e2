package dev.panamax.bindgen.decl;

import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.parser.Parser;

/**
 * snakeyaml-engine's parser is iterative but its composer recurses once per nested list or mapping,
 * and the engine has no nesting limit of its own: this parser in between counts the depth and refuses
 * the collection that goes past {@link Limits#YAML_DEPTH} at its place, before the composer descends.
 */
final class DepthLimitedParser implements Parser {
    private final Parser parser;
    private final String file;
    private int depth;

    DepthLimitedParser(Parser parser, String file) {
        this.parser = parser;
        this.file = file;
    }

    @Override
    public boolean checkEvent(Event.ID choice) {
        return parser.checkEvent(choice);
    }

    @Override
    public Event peekEvent() {
        return parser.peekEvent();
    }

    @Override
    public boolean hasNext() {
        return parser.hasNext();
    }

    @Override
    public Event next() {
        Event e = parser.next();
        switch (e.getEventId()) {
            case SequenceStart, MappingStart -> {
                if (++depth > Limits.YAML_DEPTH) {
                    Location at = e.getStartMark().map(m -> new Location(file, m.getLine() + 1, m.getColumn() + 1))
                            .orElse(new Location(file, 1, 1));
                    throw new DeclarationsException(at, "the YAML nests deeper than " + Limits.YAML_DEPTH
                            + " levels; expected at most " + Limits.YAML_DEPTH + " nested lists and mappings");
                }
            }
            case SequenceEnd, MappingEnd -> depth--;
            default -> { }
        }
        return e;
    }
}
