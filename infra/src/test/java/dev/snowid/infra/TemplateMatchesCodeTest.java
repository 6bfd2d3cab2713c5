package dev.snowid.infra;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The real template follows the real code: every check finds nothing. */
class TemplateMatchesCodeTest {

    private final Template template = Template.load();
    private final CodeNames code = CodeNames.fromCode();
    private final MetricNames metrics = MetricNames.fromCode();

    @Test
    void leaseTableUsesLeaseTableSchemasNames() {
        assertEquals(List.of(), TemplateChecks.table(template, code));
    }

    @Test
    void functionIsJava21WithSnapStartBehindAnAlias() {
        assertEquals(List.of(), TemplateChecks.function(template, code));
    }

    @Test
    void environmentVariablesAreExactlyFunctionSettingsNames() {
        assertEquals(List.of(), TemplateChecks.environment(template, code));
    }

    @Test
    void iamGrantsExactlyTheActionsUsedOnThisTableAndNoWildcard() {
        assertEquals(List.of(), TemplateChecks.iam(template, code));
    }

    @Test
    void leaseUrlOutputIsTheBaseUrlTheAgentAppendsLeasesTo() {
        // The client's HttpLeaseSource (in the agent too) calls <lease URL>/leases; an output ending in
        // /leases would make agents call /leases/leases and fail at start-up.
        Object apiUrl = Template.at(template.root(), "Outputs", "ApiUrl", "Value", "Fn::Sub").orElseThrow();
        Object leaseUrl = Template.at(template.root(), "Outputs", "LeaseUrl", "Value", "Fn::Sub").orElseThrow();
        assertEquals(String.valueOf(apiUrl).replaceAll("/$", ""), String.valueOf(leaseUrl));
    }

    @Test
    void apiHasTheDesignedRoutesAndIamCanGuardTheLeaseRoutes() {
        assertEquals(List.of(), TemplateChecks.routes(template));
    }

    @Test
    void inBearerModeTheLeaseRoutesAreBehindTheAuthorizerOnItsOwnConcurrency() {
        assertEquals(List.of(), TemplateChecks.authorizer(template, code));
    }

    @Test
    void theDeployGuideStatesTheAuthorizersCacheTimeAndConcurrencyAsTheTemplateSetsThem() throws java.io.IOException {
        List<Object> scheme = Template.list(Template.at(template.properties("Api"), "DefinitionBody", "components", "securitySchemes",
                TemplateChecks.BEARER_SCHEME, "Fn::If").orElseThrow());
        Object ttl = Template.at(scheme.get(1), "x-amazon-apigateway-authorizer", "authorizerResultTtlInSeconds").orElseThrow();
        String page = java.nio.file.Files.readString(Template.location().getParent().getParent().resolve("docs/deploy.md"));
        assertTrue(page.contains("for " + ttl + " s") && page.contains("up to " + ttl + " s"), "docs/deploy.md states the cache time " + ttl);
        Object concurrency = Template.map(template.parameters().get(TemplateChecks.AUTHORIZER_CONCURRENCY)).get("Default");
        assertTrue(page.contains("| `AuthorizerConcurrency` | `" + concurrency + "` |"), "docs/deploy.md states the default " + concurrency);
    }

    @Test
    void theBearerSecretIsNeverInTheTemplate() {
        assertEquals(List.of(), TemplateChecks.secret(template, code));
    }

    @Test
    void theFunctionIsToldTheSplitAndWhetherIamGuardsTheLeaseRoutes() {
        assertEquals(List.of(), TemplateChecks.fleet(template));
    }

    @Test
    void theStageIsThrottledByParametersAndLogsEveryRequestAsJson() {
        assertEquals(List.of(), TemplateChecks.stage(template));
    }

    @Test
    void theDefaultThrottlingIsWhatTheDefaultConcurrencyCanServe() {
        // A warm request takes well under 10 ms (bench's HandlerBenchmark): one environment serves 100/s.
        int concurrency = Integer.parseInt(String.valueOf(Template.map(template.parameters().get("ReservedConcurrency")).get("Default")));
        int rate = Integer.parseInt(String.valueOf(Template.map(template.parameters().get("ThrottlingRateLimit")).get("Default")));
        int burst = Integer.parseInt(String.valueOf(Template.map(template.parameters().get("ThrottlingBurstLimit")).get("Default")));
        assertTrue(rate <= concurrency * 100, "rate " + rate + " for " + concurrency + " environments");
        assertTrue(burst <= concurrency * 4 && burst <= rate, "burst " + burst + " for " + concurrency + " environments, rate " + rate);
    }

    @Test
    void reservedConcurrencyNeverExceedsThePool() {
        assertEquals(List.of(), TemplateChecks.concurrencyWithinPool(template));
    }

    @Test
    void alarmsWatchOnlyMetricsTheFunctionEmitsAndNotifyTheTopic() {
        assertEquals(List.of(), TelemetryChecks.alarms(template, metrics));
    }

    @Test
    void alarmsCoverAFullPoolRefusedIdsLostLeases5xxAndP99Latency() {
        assertEquals(List.of(), TelemetryChecks.requiredAlarms(template, metrics));
    }

    @Test
    void dashboardShowsOnlyMetricsTheFunctionEmits() {
        assertEquals(List.of(), TelemetryChecks.dashboard(template, metrics));
    }

    @Test
    void theMetricNamesAreReadFromTheCode() {
        // Guards the reflection itself: if it found nothing, every comparison would pass.
        assertTrue(metrics.dimensionsOf().containsKey("PoolOccupancy"), metrics.toString());
        assertTrue(metrics.valuesOf().get("ErrorCode").containsAll(TelemetryChecks.ALARMED_CODES), metrics.toString());
        assertTrue(metrics.poolParts(true).size() == 2 && metrics.valuesOf().get("Route").contains("/ids"), metrics.toString());
        assertTrue(!metrics.valuesOf().get("Route").contains("/health"), "/health is never metered: " + metrics);
    }

    @Test
    void theCodeNamesAreReadFromTheCode() {
        // Guards the reflection itself: if it found nothing, every comparison would be empty.
        assertTrue(code.attributes().contains(code.keyAttribute()), code.toString());
        assertTrue(code.attributes().contains(code.ttlAttribute()), code.toString());
        assertTrue(code.functionVariables().size() >= 8, code.toString());
        assertTrue(!code.actionsUsed().isEmpty(), code.toString());
    }
}
