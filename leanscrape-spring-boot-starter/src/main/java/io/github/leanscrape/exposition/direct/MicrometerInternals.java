package io.github.leanscrape.exposition.direct;

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
import io.prometheus.metrics.model.snapshots.MetricFamilyDescriptor;
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

	private final @Nullable Map<String, ?> collectorsByName;

	private final @Nullable Collection<?> singleCollectors;

	private final @Nullable Collection<?> multiCollectors;

	private final @Nullable Map<?, ?> registrations;

	private final boolean exemplarsPossible;

	private final @Nullable PrometheusConfig config;

	MicrometerInternals(PrometheusMeterRegistry meterRegistry) {
		PrometheusRegistry prometheusRegistry = meterRegistry.getPrometheusRegistry();
		this.collectorsByName = read(InternalMember.METER_REGISTRY_COLLECTORS, meterRegistry, Map.class);
		this.singleCollectors = read(InternalMember.REGISTRY_COLLECTORS, prometheusRegistry, Collection.class);
		this.multiCollectors = read(InternalMember.REGISTRY_MULTI_COLLECTORS, prometheusRegistry, Collection.class);
		this.registrations = read(InternalMember.REGISTRY_REGISTRATIONS, prometheusRegistry, Map.class);
		// A read that fails is not an absent sampler factory: exemplars stay possible.
		this.exemplarsPossible = !InternalMember.METER_REGISTRY_EXEMPLARS.isFound()
				|| InternalMember.METER_REGISTRY_EXEMPLARS.read(meterRegistry) != null;
		this.config = read(InternalMember.METER_REGISTRY_CONFIG, meterRegistry, PrometheusConfig.class);
	}

	private MicrometerInternals() {
		this.collectorsByName = null;
		this.singleCollectors = null;
		this.multiCollectors = null;
		this.registrations = null;
		this.exemplarsPossible = true;
		this.config = null;
	}

	/**
	 * Return the internals as they are where none of the fields can be read (another
	 * version of Micrometer or client_java, a native image without the starter's hints):
	 * each accessor gives its fail-safe answer.
	 * @return the internals
	 */
	static MicrometerInternals unreadable() {
		return new MicrometerInternals();
	}

	/**
	 * Return whether the collectors of the registries can be seen, without which the
	 * direct path cannot tell what else a scrape must contain.
	 * @return {@code true} when the direct path may serve scrapes
	 */
	boolean isUsable() {
		return this.collectorsByName != null && this.singleCollectors != null && this.multiCollectors != null
				&& InternalMember.MICROMETER_COLLECTOR.isFound();
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
		Class<?> micrometerCollector = InternalMember.MICROMETER_COLLECTOR.owner();
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
	 * Return whether the meter registry's collector of a Prometheus name is registered in
	 * client_java's registry, so that scrapes write its meters. Micrometer 1.18 keeps no
	 * collector for a meter whose families client_java refused.
	 * @param conventionName the name
	 * @return {@code true} when it is, or when the collectors cannot be read
	 */
	boolean isExported(String conventionName) {
		return this.collectorsByName == null || this.collectorsByName.containsKey(conventionName);
	}

	/**
	 * Return the names of the families a collector described when it was registered in
	 * client_java's registry, by which the registry decides whether a scrape with a name
	 * filter collects it. A collector describes its families once, when registered:
	 * families that a Micrometer collector gains later (a timer added under the name of a
	 * function timer brings a {@code _max} family) are not among them.
	 * @param collector the collector
	 * @return the names, empty when it described none or when the registry predates
	 * descriptions (client_java 1.4)
	 */
	List<String> registeredNames(MultiCollector collector) {
		if (this.registrations == null) {
			if (!InternalMember.REGISTRY_REGISTRATIONS.isFound() && ReferenceFamilies.COLLECTORS_DESCRIBE_FAMILIES) {
				// Not readable where it should be: the families described now are the
				// closest answer.
				List<String> names = new ArrayList<>();
				for (MetricFamilyDescriptor descriptor : collector.getMetricFamilyDescriptors()) {
					names.add(descriptor.getPrometheusName());
				}
				return names;
			}
			return List.of();
		}
		Object registered = this.registrations.get(collector);
		if (!(registered instanceof List<?> each) || each.isEmpty()) {
			return List.of();
		}
		List<String> names = new ArrayList<>(each.size());
		for (Object registration : each) {
			if (InternalMember.REGISTRATION_NAME.get(registration) instanceof String name) {
				names.add(name);
			}
		}
		return names;
	}

	/**
	 * Return whether the registry exports descriptions as help text.
	 * @param fallback the configuration to ask when the registry's cannot be read
	 * @return {@code true} when descriptions are exported
	 */
	boolean descriptions(PrometheusConfig fallback) {
		return ((this.config != null) ? this.config : fallback).descriptions();
	}

	private static <T> @Nullable T read(InternalMember member, Object target, Class<T> type) {
		Object value = member.get(target);
		return type.isInstance(value) ? type.cast(value) : null;
	}

}
