package io.github.leanscrape.support;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import io.github.leanscrape.exposition.direct.CardinalityReport;
import io.github.leanscrape.exposition.direct.FamilyReport;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import org.jspecify.annotations.Nullable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The check that a new Micrometer or client_java fails CI rather than a user's scrape: a
 * plain application's full scrape went to Spring Boot's path neither as a whole nor, for
 * any family, for a reason other than those expected. A change in what the starter reads
 * of Micrometer's or client_java's internals shows as such a fallback: exact, but at
 * Spring Boot's cost.
 */
public final class FallbackCheck {

	private static final String VERSIONS = "Micrometer " + version(PrometheusMeterRegistry.class) + ", client_java "
			+ version(PrometheusRegistry.class);

	private FallbackCheck() {
	}

	/**
	 * Assert that the last full scrape took Spring Boot's path as a whole for no reason,
	 * and for families only for the expected reasons.
	 * @param report the report of the last full scrape
	 * @param expectedFamilyReasons the family fallback reasons the application is known
	 * to cause, by their texts
	 */
	public static void assertOnlyExpected(@Nullable CardinalityReport report, Set<String> expectedFamilyReasons) {
		assertThat(report).as("the report of a full scrape").isNotNull();
		assertThat(counted(report.wholeScrapeFallbackReasons()))
			.as("scrapes that went to Spring Boot's path as a whole, by reason, with %s", VERSIONS)
			.isEmpty();
		Map<String, Long> unexpected = counted(report.familyFallbackReasons());
		unexpected.keySet().removeAll(expectedFamilyReasons);
		List<String> reference = new ArrayList<>();
		for (FamilyReport family : report.families()) {
			if (!family.renderer().equals("direct")) {
				reference.add(family.name());
			}
		}
		assertThat(unexpected)
			.as("families written by Spring Boot's path for an unexpected reason, with %s (families: %s)", VERSIONS,
					reference)
			.isEmpty();
	}

	private static Map<String, Long> counted(Map<String, Long> reasons) {
		Map<String, Long> counted = new TreeMap<>();
		reasons.forEach((reason, count) -> {
			if (count > 0) {
				counted.put(reason, count);
			}
		});
		return counted;
	}

	private static String version(Class<?> type) {
		String version = type.getPackage().getImplementationVersion();
		return (version != null) ? version : "(version not in its manifest)";
	}

}
