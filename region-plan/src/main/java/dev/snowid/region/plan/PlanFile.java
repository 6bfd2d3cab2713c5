package dev.snowid.region.plan;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The TOML a SAM CLI configuration file is written in, as far as a region plan uses it: table
 * headers ({@code [env.deploy.parameters]}), {@code key = value} with basic or literal strings,
 * booleans, numbers (kept as written) and arrays of strings, and comments. Anything else is
 * refused with its line, never guessed at.
 */
final class PlanFile {

    private final String source;
    private final String text;
    private int position;
    private int line = 1;

    private PlanFile(String source, String text) {
        this.source = source;
        this.text = text;
    }

    /** Every value, by its table's header and its key: {@code "eu-west-1.deploy.parameters" -> {"region" -> "eu-west-1"}}. */
    static Map<String, Map<String, Object>> read(String source, String text) {
        return new PlanFile(source, text).tables();
    }

    private Map<String, Map<String, Object>> tables() {
        Map<String, Map<String, Object>> tables = new LinkedHashMap<String, Map<String, Object>>();
        Map<String, Object> current = new LinkedHashMap<String, Object>();
        tables.put("", current);
        while (true) {
            skipBlankAndComments();
            if (position >= text.length()) {
                return tables;
            }
            if (text.charAt(position) == '[') {
                position++;
                int start = position;
                while (position < text.length() && text.charAt(position) != ']' && text.charAt(position) != '\n') {
                    position++;
                }
                if (position >= text.length() || text.charAt(position) != ']') {
                    throw error("a table header needs its closing ']'");
                }
                String header = text.substring(start, position).trim();
                position++;
                if (header.isEmpty() || !header.matches("[A-Za-z0-9_.-]+")) {
                    throw error("'[" + header + "]' is not a table header this reader takes (bare keys of A-Z a-z 0-9 _ - joined by dots)");
                }
                if (tables.containsKey(header)) {
                    throw error("table [" + header + "] appears twice");
                }
                current = new LinkedHashMap<String, Object>();
                tables.put(header, current);
            } else {
                String key = key();
                skipSpaces();
                if (position >= text.length() || text.charAt(position) != '=') {
                    throw error("expected '=' after the key '" + key + "'");
                }
                position++;
                skipSpaces();
                if (current.containsKey(key)) {
                    throw error("the key '" + key + "' appears twice in its table");
                }
                current.put(key, value());
            }
            endOfLine();
        }
    }

    private String key() {
        int start = position;
        while (position < text.length() && (Character.isLetterOrDigit(text.charAt(position)) || "_-".indexOf(text.charAt(position)) >= 0)) {
            position++;
        }
        if (start == position) {
            throw error("expected a key (A-Z a-z 0-9 _ -) or a [table] header");
        }
        return text.substring(start, position);
    }

    private Object value() {
        if (position >= text.length()) {
            throw error("a value is missing");
        }
        char c = text.charAt(position);
        if (c == '"') {
            return basicString();
        }
        if (c == '\'') {
            int end = text.indexOf('\'', position + 1);
            int newline = text.indexOf('\n', position + 1);
            if (end < 0 || (newline >= 0 && newline < end)) {
                throw error("a literal string needs its closing ' on the same line");
            }
            String value = text.substring(position + 1, end);
            position = end + 1;
            return value;
        }
        if (c == '[') {
            return array();
        }
        int start = position;
        while (position < text.length() && " \t\r\n#,]".indexOf(text.charAt(position)) < 0) {
            position++;
        }
        String bare = text.substring(start, position);
        if (bare.equals("true") || bare.equals("false")) {
            return Boolean.valueOf(bare);
        }
        if (bare.matches("[+-]?[0-9][0-9_]*(\\.[0-9_]+)?")) {
            return bare;
        }
        throw error("'" + bare + "' is not a value this reader takes (a \"string\", true/false, a number, or [\"a\", \"b\"])");
    }

    private String basicString() {
        StringBuilder value = new StringBuilder();
        position++;
        while (true) {
            if (position >= text.length() || text.charAt(position) == '\n') {
                throw error("a string needs its closing \" on the same line");
            }
            char c = text.charAt(position++);
            if (c == '"') {
                return value.toString();
            }
            if (c != '\\') {
                value.append(c);
                continue;
            }
            if (position >= text.length()) {
                throw error("a string ends inside an escape");
            }
            char escaped = text.charAt(position++);
            switch (escaped) {
                case '"': value.append('"'); break;
                case '\\': value.append('\\'); break;
                case 'n': value.append('\n'); break;
                case 't': value.append('\t'); break;
                case 'r': value.append('\r'); break;
                case 'u':
                    if (position + 4 > text.length() || !text.substring(position, position + 4).matches("[0-9A-Fa-f]{4}")) {
                        throw error("\\u needs 4 hex digits");
                    }
                    value.append((char) Integer.parseInt(text.substring(position, position + 4), 16));
                    position += 4;
                    break;
                default:
                    throw error("'\\" + escaped + "' is not an escape this reader takes (\\\" \\\\ \\n \\t \\r \\uXXXX)");
            }
        }
    }

    private List<String> array() {
        List<String> items = new ArrayList<String>();
        position++;
        while (true) {
            skipBlankAndComments();
            if (position >= text.length()) {
                throw error("an array needs its closing ']'");
            }
            if (text.charAt(position) == ']') {
                position++;
                return items;
            }
            char first = text.charAt(position);
            Object item = value();
            if (first != '"' && first != '\'') {
                throw error("an array of a plan holds strings only");
            }
            items.add((String) item);
            skipBlankAndComments();
            if (position < text.length() && text.charAt(position) == ',') {
                position++;
            } else if (position < text.length() && text.charAt(position) != ']') {
                throw error("expected ',' or ']' in the array");
            }
        }
    }

    private void skipSpaces() {
        while (position < text.length() && (text.charAt(position) == ' ' || text.charAt(position) == '\t')) {
            position++;
        }
    }

    private void skipBlankAndComments() {
        while (position < text.length()) {
            char c = text.charAt(position);
            if (c == '#') {
                while (position < text.length() && text.charAt(position) != '\n') {
                    position++;
                }
            } else if (c == '\n') {
                line++;
                position++;
            } else if (c == ' ' || c == '\t' || c == '\r') {
                position++;
            } else {
                return;
            }
        }
    }

    private void endOfLine() {
        skipSpaces();
        if (position < text.length() && text.charAt(position) == '#') {
            while (position < text.length() && text.charAt(position) != '\n') {
                position++;
            }
        }
        if (position < text.length() && text.charAt(position) == '\r') {
            position++;
        }
        if (position < text.length() && text.charAt(position) != '\n') {
            throw error("unexpected text after the value: '" + text.substring(position, Math.min(text.length(), position + 20)) + "'");
        }
    }

    private IllegalArgumentException error(String problem) {
        return new IllegalArgumentException(source + ", line " + line + ": " + problem);
    }
}
