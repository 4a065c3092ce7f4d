package io.github.leanscrape.exposition.direct;

import java.util.ArrayList;
import java.util.List;

import io.github.leanscrape.exposition.direct.MeterIndex.ScrapePlan;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link MeterIndex}: a scrape after no change takes the last plan again, with
 * whether the registry collects each family, and a new one once meters are added or
 * removed.
 *
 * @author leanscrape
 */
class MeterIndexTests {

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	private final MeterIndex index = new MeterIndex(this.registry, true, null, new MicrometerInternals(this.registry));

	@Test
	void planIsTakenAgainOnlyWhenMetersAreAddedOrRemoved() {
		Counter first = Counter.builder("jobs").tag("queue", "a").register(this.registry);
		ScrapePlan plan = this.index.plan();
		assertThat(names(plan)).containsExactly("jobs");
		assertThat(this.index.plan()).isSameAs(plan);
		Counter second = Counter.builder("jobs").tag("queue", "b").register(this.registry);
		ScrapePlan afterAdding = this.index.plan();
		assertThat(afterAdding).isNotSameAs(plan);
		assertThat(afterAdding.series()[0]).extracting((series) -> series.meter).containsExactly(first, second);
		assertThat(this.index.plan()).isSameAs(afterAdding);
		this.registry.remove(first);
		ScrapePlan afterRemoving = this.index.plan();
		assertThat(afterRemoving).isNotSameAs(afterAdding);
		assertThat(afterRemoving.series()[0]).extracting((series) -> series.meter).containsExactly(second);
		assertThat(this.index.plan()).isSameAs(afterRemoving);
	}

	@Test
	void planKnowsWhichFamiliesTheRegistryCollects() {
		Counter.builder("jobs").register(this.registry);
		Gauge.builder("queue.size", () -> 1).register(this.registry);
		ScrapePlan plan = this.index.plan();
		assertThat(names(plan)).containsExactly("jobs", "queue_size");
		assertThat(plan.exported()).containsExactly(true, true);
	}

	@Test
	void planKnowsWhichFamiliesHaveFunctionsToCall() {
		Counter.builder("jobs").register(this.registry);
		FunctionCounter.builder("tasks", this, (test) -> 1).register(this.registry);
		Gauge.builder("queue.size", () -> 1).register(this.registry);
		ScrapePlan plan = this.index.plan();
		assertThat(names(plan)).containsExactly("jobs", "queue_size", "tasks");
		assertThat(plan.functions()).containsExactly(false, false, true);
	}

	private static List<String> names(ScrapePlan plan) {
		List<String> names = new ArrayList<>();
		for (Family family : plan.families()) {
			names.add(family.name);
		}
		return names;
	}

}
