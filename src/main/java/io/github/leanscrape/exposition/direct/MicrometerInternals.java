package io.github.leanscrape.exposition.direct;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.Collector;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import org.jspecify.annotations.Nullable;

/**
 * The few facts about Micrometer's Prometheus registry and client_java's registry that
 * their public API does not tell, read once by reflection: the registry's collector per
 * Prometheus name, whether anything else is registered in the Prometheus registry,
 * whether exemplars can appear, and the registry's configuration.
 * <p>
 * Every accessor fails safe: when a field is not where it was expected (another version),
 * the answer is the one that sends scrapes to the reference path, which is always exact.
 *
 * @author leanscrape
 */
final class MicrometerInternals {

	private static final String REFERENCE_PATH = "the reference path serves scrapes";

	/**
	 * The class of the meter registry's collectors (package-private in Micrometer), which
	 * tells them apart from collectors registered by anything else.
	 */
	private static final @Nullable Class<?> MICROMETER_COLLECTOR = Reflection.micrometerClass("MicrometerCollector",
			REFERENCE_PATH);

	private final @Nullable Map<String, ?> collectorsByName;

	private final @Nullable Collection<?> singleCollectors;

	private final @Nullable Collection<?> multiCollectors;

	private final boolean exemplarsPossible;

	private final @Nullable PrometheusConfig config;

	MicrometerInternals(PrometheusMeterRegistry meterRegistry) {
		PrometheusRegistry prometheusRegistry = meterRegistry.getPrometheusRegistry();
		this.collectorsByName = read(meterRegistry, PrometheusMeterRegistry.class, "collectorMap", Map.class);
		this.singleCollectors = read(prometheusRegistry, PrometheusRegistry.class, "collectors", Collection.class);
		this.multiCollectors = read(prometheusRegistry, PrometheusRegistry.class, "multiCollectors", Collection.class);
		Field exemplars = Reflection.field(PrometheusMeterRegistry.class, "exemplarSamplerFactory", REFERENCE_PATH);
		this.exemplarsPossible = (exemplars == null) || Reflection.get(exemplars, meterRegistry) != null;
		this.config = read(meterRegistry, PrometheusMeterRegistry.class, "prometheusConfig", PrometheusConfig.class);
	}

	/**
	 * Return whether the collectors of the registries can be seen, without which the
	 * direct path cannot tell what else a scrape must contain.
	 * @return {@code true} when the direct path may serve scrapes
	 */
	boolean isUsable() {
		return this.collectorsByName != null && this.singleCollectors != null && this.multiCollectors != null
				&& MICROMETER_COLLECTOR != null;
	}

	/**
	 * Return whether samples may carry exemplars (the registry has a span context).
	 * OpenMetrics writes them; text 0.0.4 never does.
	 * @return {@code true} when exemplars may appear
	 */
	boolean exemplarsPossible() {
		return this.exemplarsPossible;
	}

	/**
	 * Collect the families of the collectors registered in the Prometheus registry
	 * outside Micrometer, which only client_java can write, with the name filter applied
	 * as client_java's registry applies it: each collector filters its own output.
	 * @param includedNames the families to include, or {@code null} for all
	 * @return the families, or {@code null} when the meter registry's own collectors
	 * cannot be told apart from the others (another meter registry on the same Prometheus
	 * registry, or a meter being added or removed right now)
	 */
	@Nullable List<MetricSnapshot> collectForeign(@Nullable Set<String> includedNames) {
		Map<String, ?> ours = this.collectorsByName;
		Collection<?> single = this.singleCollectors;
		Collection<?> multi = this.multiCollectors;
		Class<?> micrometerCollector = MICROMETER_COLLECTOR;
		if (ours == null || single == null || multi == null || micrometerCollector == null) {
			return null;
		}
		if (single.isEmpty() && multi.size() == ours.size()) {
			// The usual case: every collector is one of the meter registry's.
			return List.of();
		}
		List<MetricSnapshot> into = new ArrayList<>();
		Predicate<String> filter = (includedNames != null) ? includedNames::contains : null;
		for (Object collector : single) {
			if (collector instanceof Collector foreign) {
				MetricSnapshot snapshot = (filter != null) ? foreign.collect(filter) : foreign.collect();
				if (snapshot != null) {
					into.add(snapshot);
				}
			}
		}
		int micrometerCollectors = 0;
		for (Object collector : multi) {
			if (micrometerCollector.isInstance(collector)) {
				micrometerCollectors++;
			}
			else if (collector instanceof MultiCollector foreign) {
				for (MetricSnapshot snapshot : (filter != null) ? foreign.collect(filter) : foreign.collect()) {
					if (snapshot != null) {
						into.add(snapshot);
					}
				}
			}
		}
		return (micrometerCollectors == ours.size()) ? into : null;
	}

	/**
	 * Return the meter registry's collector for a Prometheus name.
	 * @param conventionName the name
	 * @return the collector, or {@code null} when there is none
	 */
	@Nullable MultiCollector collector(String conventionName) {
		if (this.collectorsByName == null) {
			return null;
		}
		Object collector = this.collectorsByName.get(conventionName);
		return (collector instanceof MultiCollector multiCollector) ? multiCollector : null;
	}

	/**
	 * Return whether the registry exports descriptions as help text.
	 * @param fallback the configuration to ask when the registry's cannot be read
	 * @return {@code true} when descriptions are exported
	 */
	boolean descriptions(PrometheusConfig fallback) {
		return ((this.config != null) ? this.config : fallback).descriptions();
	}

	private static <T> @Nullable T read(Object target, Class<?> owner, String name, Class<T> type) {
		Object value = Reflection.get(Reflection.field(owner, name, REFERENCE_PATH), target);
		return type.isInstance(value) ? type.cast(value) : null;
	}

}
