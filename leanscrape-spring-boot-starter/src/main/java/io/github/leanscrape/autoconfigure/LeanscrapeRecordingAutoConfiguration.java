package io.github.leanscrape.autoconfigure;

import io.github.leanscrape.recording.CachingMeterObservationHandler;
import io.github.leanscrape.recording.reactive.CachingReactiveServerRequestObservationConvention;
import io.github.leanscrape.recording.reactive.ReactiveServerRequestRecording;
import io.github.leanscrape.recording.servlet.CachingServerRequestObservationConvention;
import io.github.leanscrape.recording.servlet.ServerRequestMetricsFilter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler.IgnoredMeters;
import io.micrometer.core.instrument.observation.MeterObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import jakarta.servlet.DispatcherType;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingFilterBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsProperties;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.webflux.autoconfigure.WebHttpHandlerBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.server.observation.DefaultServerRequestObservationConvention;
import org.springframework.http.server.observation.ServerRequestObservationConvention;
import org.springframework.web.filter.ServerHttpObservationFilter;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.server.adapter.HttpWebHandlerAdapter;
import org.springframework.web.servlet.DispatcherServlet;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the leanscrape meter observation handler.
 * <p>
 * The handler supports every context and is ordered first among the
 * {@link MeterObservationHandler} beans, which Spring Boot puts in one first-matching
 * composite, so the default handler is never asked; tracing and other handlers still see
 * every observation. In a Spring MVC or WebFlux application, Spring Boot's request
 * observation convention is replaced by a caching one unless the application has its own.
 *
 * @author leanscrape
 */
@AutoConfiguration(
		after = { MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
				ObservationAutoConfiguration.class },
		beforeName = { "org.springframework.boot.webmvc.autoconfigure.WebMvcObservationAutoConfiguration",
				"org.springframework.boot.webflux.autoconfigure.WebFluxObservationAutoConfiguration" })
@ConditionalOnClass({ MeterObservationHandler.class, ObservationRegistry.class })
@ConditionalOnBooleanProperty(name = "leanscrape.recording.enabled", matchIfMissing = true)
@ConditionalOnBean(MeterRegistry.class)
@EnableConfigurationProperties({ LeanscrapeProperties.class, MetricsProperties.class })
public final class LeanscrapeRecordingAutoConfiguration {

	@Bean
	@Order(Ordered.HIGHEST_PRECEDENCE)
	@ConditionalOnMissingBean
	CachingMeterObservationHandler leanscrapeMeterObservationHandler(MeterRegistry meterRegistry,
			MetricsProperties metricsProperties, LeanscrapeProperties properties) {
		return new CachingMeterObservationHandler(meterRegistry, properties.getRecording().getMaxCachedMeters(),
				metricsProperties.getObservations().getIgnoredMeters().toArray(IgnoredMeters[]::new));
	}

	/**
	 * Spring's default convention of Spring MVC request observations, with its key values
	 * cached per combination. Spring Boot's request observation filter uses a convention
	 * bean when there is one.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnClass({ ServerHttpObservationFilter.class, DispatcherServlet.class })
	@EnableConfigurationProperties(ObservationProperties.class)
	static final class ServerRequestObservationConventionConfiguration {

		@Bean
		@ConditionalOnMissingBean(ServerRequestObservationConvention.class)
		CachingServerRequestObservationConvention leanscrapeServerRequestObservationConvention(
				ObservationProperties observationProperties, LeanscrapeProperties properties) {
			return new CachingServerRequestObservationConvention(
					observationProperties.getHttp().getServer().getRequests().getName(),
					properties.getRecording().getMaxCachedMeters());
		}

	}

	/**
	 * Spring's default convention of Spring WebFlux request observations, with its key
	 * values cached per combination. Spring Boot's HTTP handler uses a convention bean
	 * when there is one.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	@ConditionalOnClass({ org.springframework.http.server.reactive.observation.ServerRequestObservationConvention.class,
			DispatcherHandler.class })
	@EnableConfigurationProperties(ObservationProperties.class)
	static final class ReactiveServerRequestObservationConventionConfiguration {

		@Bean
		@ConditionalOnMissingBean(org.springframework.http.server.reactive.observation.ServerRequestObservationConvention.class)
		CachingReactiveServerRequestObservationConvention leanscrapeReactiveServerRequestObservationConvention(
				ObservationProperties observationProperties, LeanscrapeProperties properties) {
			return new CachingReactiveServerRequestObservationConvention(
					observationProperties.getHttp().getServer().getRequests().getName(),
					properties.getRecording().getMaxCachedMeters());
		}

	}

	/**
	 * Spring MVC's request observation filter, in the place of Spring Boot's, recording
	 * {@code http.server.requests} without an observation where nothing else would see
	 * it.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
	@ConditionalOnClass({ ServerHttpObservationFilter.class, DispatcherServlet.class, FilterRegistrationBean.class })
	@ConditionalOnBooleanProperty(name = "leanscrape.recording.direct-server-requests", matchIfMissing = true)
	@ConditionalOnBean(ObservationRegistry.class)
	@EnableConfigurationProperties(ObservationProperties.class)
	static final class DirectServerRequestsConfiguration {

		@Bean
		@ConditionalOnMissingFilterBean(ServerHttpObservationFilter.class)
		FilterRegistrationBean<ServerHttpObservationFilter> leanscrapeServerRequestsFilter(
				ObservationRegistry observationRegistry,
				ObjectProvider<ServerRequestObservationConvention> customConvention,
				ObservationProperties observationProperties, CachingMeterObservationHandler handler,
				MeterRegistry meterRegistry, MetricsProperties metricsProperties, LeanscrapeProperties properties) {
			// As Spring Boot registers its filter: the same convention, order and
			// dispatches.
			String name = observationProperties.getHttp().getServer().getRequests().getName();
			ServerRequestObservationConvention convention = customConvention
				.getIfAvailable(() -> new DefaultServerRequestObservationConvention(name));
			boolean longTaskTimers = !metricsProperties.getObservations()
				.getIgnoredMeters()
				.contains(IgnoredMeters.LONG_TASK_TIMER);
			ServerRequestMetricsFilter filter = new ServerRequestMetricsFilter(observationRegistry, convention, handler,
					meterRegistry, longTaskTimers, properties.getRecording().getMaxCachedMeters(),
					properties.getMetrics().isEnabled());
			// Registered as Spring Boot's is typed, so that Spring Boot's backs off.
			FilterRegistrationBean<ServerHttpObservationFilter> registration = new FilterRegistrationBean<>(filter);
			registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 1);
			registration.setDispatcherTypes(DispatcherType.REQUEST, DispatcherType.ASYNC);
			return registration;
		}

	}

	/**
	 * Spring WebFlux's HTTP handler adapter made again around the starter's web handler,
	 * recording {@code http.server.requests} without an observation where nothing else
	 * would see it. Its decorator is added last, so that it is applied first, to the
	 * adapter Spring Boot built; anything else leaves that adapter as it is.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.REACTIVE)
	@ConditionalOnClass({ HttpWebHandlerAdapter.class, DispatcherHandler.class, WebHttpHandlerBuilderCustomizer.class })
	@ConditionalOnBooleanProperty(name = "leanscrape.recording.direct-server-requests", matchIfMissing = true)
	@ConditionalOnBean(ObservationRegistry.class)
	static final class ReactiveDirectServerRequestsConfiguration {

		@Bean
		@Order(Ordered.LOWEST_PRECEDENCE)
		WebHttpHandlerBuilderCustomizer leanscrapeServerRequestsCustomizer(CachingMeterObservationHandler handler,
				MeterRegistry meterRegistry, MetricsProperties metricsProperties, LeanscrapeProperties properties) {
			boolean longTaskTimers = !metricsProperties.getObservations()
				.getIgnoredMeters()
				.contains(IgnoredMeters.LONG_TASK_TIMER);
			ReactiveServerRequestRecording recording = new ReactiveServerRequestRecording(handler, meterRegistry,
					longTaskTimers, properties.getRecording().getMaxCachedMeters(),
					properties.getMetrics().isEnabled());
			return (builder) -> builder.httpHandlerDecorator(recording);
		}

	}

}
