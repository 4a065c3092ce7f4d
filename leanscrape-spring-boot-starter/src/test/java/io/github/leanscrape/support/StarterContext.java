package io.github.leanscrape.support;

import io.github.leanscrape.autoconfigure.LeanscrapeAutoConfiguration;
import io.github.leanscrape.autoconfigure.LeanscrapeScrapeAutoConfiguration;
import io.micrometer.core.instrument.Clock;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.util.TestPropertyValues;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * The starter as its auto-configuration builds it, around a registry of the caller's, in
 * an application context of its own: the way tests and benchmarks that need the starter's
 * objects outside a web application get them.
 * <p>
 * The context has the registry, its configuration and its clock as beans, the endpoint
 * exposed, and the starter's auto-configurations; nothing else, so that the registry
 * keeps exactly the meters the caller put in it.
 */
public final class StarterContext implements AutoCloseable {

	private final AnnotationConfigApplicationContext context;

	private StarterContext(AnnotationConfigApplicationContext context) {
		this.context = context;
	}

	/**
	 * Start the starter around a registry.
	 * @param meterRegistry the registry the endpoint scrapes
	 * @param config the registry's configuration
	 * @param configuration more configuration classes (beans that replace the starter's)
	 * @param properties more properties, as {@code name=value}
	 * @return the running context
	 */
	public static StarterContext start(PrometheusMeterRegistry meterRegistry, PrometheusConfig config,
			Class<?>[] configuration, String... properties) {
		AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext();
		TestPropertyValues.of("management.endpoints.web.exposure.include=prometheus,leanscrape")
			.and(properties)
			.applyTo(context);
		context.registerBean(PrometheusMeterRegistry.class, () -> meterRegistry);
		context.registerBean(PrometheusRegistry.class, meterRegistry::getPrometheusRegistry);
		context.registerBean(PrometheusConfig.class, () -> config);
		context.registerBean(Clock.class, () -> Clock.SYSTEM);
		if (configuration.length > 0) {
			context.register(configuration);
		}
		context.register(Starter.class);
		context.refresh();
		return new StarterContext(context);
	}

	/**
	 * Start the starter around a registry, with its default settings and without its own
	 * metrics.
	 * @param meterRegistry the registry the endpoint scrapes
	 * @param config the registry's configuration
	 * @return the running context
	 */
	public static StarterContext start(PrometheusMeterRegistry meterRegistry, PrometheusConfig config) {
		return start(meterRegistry, config, new Class<?>[0], "leanscrape.metrics.enabled=false");
	}

	/**
	 * Return the bean of a type.
	 * @param <T> the type
	 * @param type the type
	 * @return the bean
	 */
	public <T> T bean(Class<T> type) {
		return this.context.getBean(type);
	}

	@Override
	public void close() {
		this.context.close();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ EndpointAutoConfiguration.class, LeanscrapeAutoConfiguration.class,
			LeanscrapeScrapeAutoConfiguration.class })
	static class Starter {

	}

}
