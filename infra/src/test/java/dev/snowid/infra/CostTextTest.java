package dev.snowid.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * deploy.md's cost at rest follows the template's defaults: as many alarms as the template has
 * (all on by default), one dashboard, and the sum of the prices its table gives.
 */
class CostTextTest {

    private static final Path ROOT = Path.of(System.getProperty("snowid.root", "..")).toAbsolutePath().normalize();

    @Test
    void theCostAtRestCountsTheTemplatesAlarmsAndDashboard() throws IOException {
        String template = Files.readString(ROOT.resolve("infra/template.yaml"), StandardCharsets.UTF_8);
        String page = Files.readString(ROOT.resolve("docs/deploy.md"), StandardCharsets.UTF_8).replaceAll("\\s+", " ");
        int alarms = count(template, "Type: AWS::CloudWatch::Alarm");
        assertEquals(1, count(template, "Type: AWS::CloudWatch::Dashboard"));
        assertEquals("\"on\"", defaultOf(template, "Alarms"));
        assertEquals("\"on\"", defaultOf(template, "Dashboard"));

        assertTrue(page.contains("which creates " + alarms + " alarms"), "deploy.md must say the template's " + alarms + " alarms");
        // The prices of the page's own table: $0.10 per alarm, $0.30 for the p99 one, $3 for the dashboard.
        assertTrue(page.contains("($0.10 each, $0.30 for the p99 one)") && page.contains("the dashboard ($3/month"), page);
        double alarmCost = (alarms - 1) * 0.10 + 0.30;
        assertTrue(page.contains(String.format("$%.2f for the alarms (%d × $0.10 + $0.30)", alarmCost, alarms - 1)), page);
        assertTrue(page.contains(String.format("costs about $%.2f a month: $3.00 for the dashboard", 3.00 + alarmCost)), page);
    }

    /** A parameter's {@code Default:} as written in the template. */
    private static String defaultOf(String template, String parameter) {
        Matcher block = Pattern.compile("\n  " + parameter + ":\n((?:    .*\n|\s*\n)+)").matcher(template);
        assertTrue(block.find(), parameter);
        Matcher value = Pattern.compile("\n    Default: (.*)\n").matcher("\n" + block.group(1));
        assertTrue(value.find(), parameter + " has a default");
        return value.group(1).trim();
    }

    private static int count(String text, String what) {
        Matcher matcher = Pattern.compile(Pattern.quote(what)).matcher(text);
        int n = 0;
        while (matcher.find()) {
            n++;
        }
        return n;
    }
}
