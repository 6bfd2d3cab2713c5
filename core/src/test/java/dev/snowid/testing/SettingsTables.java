package dev.snowid.testing;

import dev.snowid.internal.Setting;
import dev.snowid.internal.SettingCatalogue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Holds a front end's settings tables in the docs to its catalogue, field by field. A table is
 * found by the marker on the line before it, {@code <!-- settings: function -->}, wherever it
 * is (README.md or docs/): pages may move a table freely. In a table, the columns before the
 * one headed "default" name the setting (each name in backticks, a builder method with its
 * arguments); every setting has exactly one row, every row is a setting; the default column
 * says the literal default ({@code `60000`}), the words for an unset setting, or "—"; and the
 * row names every bound and choice the setting declares ({@link Setting#allowedValues()}).
 */
public final class SettingsTables {

    /** The front ends whose tables are marked: the marker's word. */
    public static final List<String> FRONT_ENDS = List.of("function", "runner", "agent", "cli", "client", "starter");

    private static final Pattern MARKER = Pattern.compile("^<!-- settings: ([a-z]+) -->$");
    private static final Pattern CELL_SPLIT = Pattern.compile("(?<!\\\\)\\|");
    private static final Pattern CODE = Pattern.compile("`([^`]+)`");

    private SettingsTables() {
    }

    /** The repository: {@code snowid.root}, else the nearest folder up from here with README.md and docs/. */
    public static Path root() {
        String configured = System.getProperty("snowid.root");
        Path dir = Path.of(configured != null ? configured : "").toAbsolutePath().normalize();
        for (Path candidate = dir; candidate != null; candidate = candidate.getParent()) {
            if (Files.isRegularFile(candidate.resolve("README.md")) && Files.isDirectory(candidate.resolve("docs"))) {
                return candidate;
            }
        }
        throw new IllegalStateException("no README.md and docs/ above " + dir);
    }

    /** README.md and every page of docs/. */
    public static List<Path> pages() {
        Path root = root();
        List<Path> pages = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pages;
    }

    /** Every marked table's front end, with where its marker is ({@code docs/api.md:355}). */
    public static Map<String, String> markers() {
        Map<String, String> found = new LinkedHashMap<>();
        for (Path page : pages()) {
            List<String> lines = lines(page);
            for (int i = 0; i < lines.size(); i++) {
                Matcher marker = MARKER.matcher(lines.get(i).trim());
                if (marker.matches()) {
                    found.put(where(page, i), marker.group(1));
                }
            }
        }
        return found;
    }

    /** What is wrong with {@code frontEnd}'s marked tables against {@code catalogue}; empty when they match, or when there is no such table. */
    public static List<String> problems(String frontEnd, SettingCatalogue catalogue) {
        List<String> problems = new ArrayList<>();
        int tables = 0;
        for (Path page : pages()) {
            List<String> lines = lines(page);
            for (int i = 0; i < lines.size(); i++) {
                Matcher marker = MARKER.matcher(lines.get(i).trim());
                if (marker.matches() && marker.group(1).equals(frontEnd)) {
                    tables++;
                    check(page, lines, i + 1, catalogue, problems);
                }
            }
        }
        if (tables == 0) {
            problems.add("no table is marked <!-- settings: " + frontEnd + " --> in README.md or docs/");
        }
        return problems;
    }

    private static void check(Path page, List<String> lines, int start, SettingCatalogue catalogue, List<String> problems) {
        if (start + 1 >= lines.size() || !lines.get(start).startsWith("|") || !lines.get(start + 1).startsWith("|---")) {
            problems.add(where(page, start - 1) + ": the marker is not followed by a table");
            return;
        }
        List<String> header = cells(lines.get(start));
        int defaults = -1;
        for (int c = 0; c < header.size() && defaults < 0; c++) {
            defaults = header.get(c).toLowerCase(Locale.ROOT).contains("default") ? c : -1;
        }
        if (defaults < 1) {
            problems.add(where(page, start) + ": no column headed 'default' after the name column(s)");
            return;
        }
        Set<Setting<?>> seen = new LinkedHashSet<>();
        for (int i = start + 2; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            List<String> row = cells(lines.get(i));
            String at = where(page, i);
            Setting<?> setting = setting(row.subList(0, Math.min(defaults, row.size())), catalogue, at, problems);
            if (setting == null) {
                continue;
            }
            if (!seen.add(setting)) {
                problems.add(at + ": " + setting + " has a second row");
            }
            checkDefault(setting, row.size() > defaults ? plain(row.get(defaults)) : "", at, problems);
            String text = plain(String.join(" ", row));
            for (String value : setting.allowedValues()) {
                if (!mentions(text, value)) {
                    problems.add(at + ": " + setting + "'s row does not say '" + value + "' (allowed: " + setting.allowed() + ")");
                }
            }
        }
        for (Setting<?> setting : catalogue.settings()) {
            if (!seen.contains(setting)) {
                problems.add(where(page, start) + ": no row for " + setting + " (" + setting.description() + ")");
            }
        }
    }

    /** The one setting the name cells name; null (a problem said) when none or several. */
    private static Setting<?> setting(List<String> nameCells, SettingCatalogue catalogue, String at, List<String> problems) {
        Set<Setting<?>> named = new LinkedHashSet<>();
        for (String cell : nameCells) {
            Matcher code = CODE.matcher(cell);
            while (code.find()) {
                String name = code.group(1).replace("\\|", "|");
                name = name.contains("(") ? name.substring(0, name.indexOf('(')) : name;
                Setting<?> setting = catalogue.setting(name);
                if (setting == null) {
                    problems.add(at + ": names `" + name + "`, which is not a setting of " + catalogue.owner());
                } else {
                    named.add(setting);
                }
            }
        }
        if (named.size() > 1) {
            problems.add(at + ": one row names several settings " + named);
        }
        if (named.isEmpty()) {
            problems.add(at + ": the row names no setting of " + catalogue.owner());
        }
        return named.size() == 1 ? named.iterator().next() : null;
    }

    private static void checkDefault(Setting<?> setting, String cell, String at, List<String> problems) {
        if (setting.defaultValue() != null) {
            if (!cell.equals(setting.defaultValue())) {
                problems.add(at + ": " + setting + " defaults to `" + setting.defaultValue() + "`, the table says '" + cell + "'");
            }
        } else if (setting.unsetMeans() != null) {
            if (!cell.toLowerCase(Locale.ROOT).contains(setting.unsetMeans().toLowerCase(Locale.ROOT))) {
                problems.add(at + ": " + setting + " unset means '" + setting.unsetMeans() + "', the table says '" + cell + "'");
            }
        } else if (!cell.equals("—")) {
            problems.add(at + ": " + setting + " has no default, the table says '" + cell + "' (write —)");
        }
    }

    /** Whether {@code text} names {@code value}: a number as a number (not inside a longer one), a word anywhere. */
    private static boolean mentions(String text, String value) {
        if (value.matches("[0-9]+")) {
            return Pattern.compile("(?<![0-9])" + value + "(?![0-9])").matcher(text).find();
        }
        return text.toLowerCase(Locale.ROOT).contains(value.toLowerCase(Locale.ROOT));
    }

    /** The text as read: no backticks, {@code \|} as {@code |}, no thousands separators, spaces collapsed. */
    private static String plain(String cell) {
        return cell.replace("`", "").replace("\\|", "|").replaceAll("(?<=[0-9]),(?=[0-9]{3})", "").replaceAll("\\s+", " ").trim();
    }

    private static List<String> cells(String line) {
        String inner = line.trim();
        inner = inner.substring(1, inner.endsWith("|") && !inner.endsWith("\\|") ? inner.length() - 1 : inner.length());
        List<String> cells = new ArrayList<>();
        for (String cell : CELL_SPLIT.split(inner, -1)) {
            cells.add(cell.trim());
        }
        return cells;
    }

    private static List<String> lines(Path page) {
        try {
            return Files.readAllLines(page, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String where(Path page, int index) {
        return root().relativize(page).toString().replace('\\', '/') + ":" + (index + 1);
    }
}
