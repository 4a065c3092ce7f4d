package io.github.leanscrape.support;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.micrometer.metrics.autoconfigure.MeterRegistryCustomizer;
import org.springframework.context.annotation.Bean;

/**
 * A test application whose registry holds the {@link RichMeters} only: Spring Boot's own
 * meters are denied, since they move between two scrapes.
 */
@SpringBootApplication
public class ScrapeTestApplication {

	@Bean
	Clock micrometerClock() {
		return new FrozenClock();
	}

	@Bean
	MeterFilter onlyRichMeters(@Value("${rich.own-metrics:false}") boolean ownMetrics) {
		// The starter's own meters move with every scrape: only tests that look at them
		// keep them.
		return MeterFilter.denyUnless((id) -> id.getName().startsWith(RichMeters.PREFIX)
				|| (ownMetrics && id.getName().startsWith("leanscrape.")));
	}

	@Bean
	ScrapeGate scrapeGate(MeterRegistry registry) {
		return new ScrapeGate(registry);
	}

	@Bean
	MeterRegistryCustomizer<MeterRegistry> richMetersConfiguration() {
		return RichMeters::configure;
	}

	@Bean
	RichMeters richMeters(MeterRegistry registry, @Value("${rich.bulk-series:0}") int bulkSeries) {
		return RichMeters.register(registry, bulkSeries);
	}

}
