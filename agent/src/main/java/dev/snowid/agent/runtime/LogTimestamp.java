package dev.snowid.agent.runtime;

/**
 * The UTC time at the start of each agent line, ISO 8601 with milliseconds
 * ({@code 2025-05-01T10:15:30.123Z}), so that its lines can be matched against the
 * application's log. Computed by hand: java.time's formatters load some hundred classes,
 * which every JVM start would pay for.
 */
public final class LogTimestamp {

    private static final long MILLIS_PER_DAY = 86_400_000L;

    private LogTimestamp() {
    }

    static String format(long unixMillis) {
        long days = Math.floorDiv(unixMillis, MILLIS_PER_DAY);
        int millisOfDay = (int) Math.floorMod(unixMillis, MILLIS_PER_DAY);
        // Days since 1970-01-01 to a civil date, after Howard Hinnant's days_from_civil inverse.
        long shifted = days + 719_468;
        long era = Math.floorDiv(shifted, 146_097);
        long dayOfEra = shifted - era * 146_097;
        long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365;
        long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        long monthIndex = (5 * dayOfYear + 2) / 153;
        long day = dayOfYear - (153 * monthIndex + 2) / 5 + 1;
        long month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9;
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        StringBuilder text = new StringBuilder(24);
        pad(text, year, 4).append('-');
        pad(text, month, 2).append('-');
        pad(text, day, 2).append('T');
        pad(text, millisOfDay / 3_600_000, 2).append(':');
        pad(text, millisOfDay / 60_000 % 60, 2).append(':');
        pad(text, millisOfDay / 1000 % 60, 2).append('.');
        return pad(text, millisOfDay % 1000, 3).append('Z').toString();
    }

    private static StringBuilder pad(StringBuilder text, long value, int width) {
        String digits = Long.toString(value);
        for (int i = digits.length(); i < width; i++) {
            text.append('0');
        }
        return text.append(digits);
    }
}
