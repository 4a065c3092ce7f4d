package io.github.leanscrape.autoconfigure;

import io.github.leanscrape.endpoint.LeanscrapeScrapeEndpoint;
import io.github.leanscrape.serve.ScrapeResponder;
import io.github.leanscrape.web.ScrapeEndpointPaths;
import io.github.leanscrape.web.reactive.ScrapeBodyHttpMessageWriter;
import io.github.leanscrape.web.reactive.ScrapeNegotiationWebFilter;
import io.github.leanscrape.web.reactive.ScrapeScheduler;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnThreading;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.prometheus.PrometheusScrapeEndpoint;
import org.springframework.boot.thread.Threading;
import org.springframework.context.annotation.Bean;
import org.springframework.http.codec.ServerCodecConfigurer;
import org.springframework.web.reactive.DispatcherHandler;
import org.springframework.web.reactive.config.WebFluxConfigurer;

/**
 * The reactive glue of the leanscrape endpoint, in whichever context serves actuator
 * endpoints (the main one, or the child one of {@code management.server.port}). Its
 * conditions are those of the endpoint itself (micrometer-registry-prometheus on the
 * class path, the endpoint available), so that it adds nothing where Spring Boot makes no
 * endpoint; whether the endpoint is the starter's is known only once it exists, so each
 * piece checks that lazily.
 *
 * @author leanscrape
 */
@ManagementContextConfiguration(value = ManagementContextType.ANY, proxyBeanMethods = false)
@ConditionalOnWebApplication(type = Type.REACTIVE)
@ConditionalOnClass({ DispatcherHandler.class, PrometheusMeterRegistry.class })
@ConditionalOnBooleanProperty(name = "leanscrape.enabled", matchIfMissing = true)
@ConditionalOnAvailableEndpoint(PrometheusScrapeEndpoint.class)
public final class LeanscrapeReactiveManagementContextConfiguration {

	@Bean
	ScrapeNegotiationWebFilter leanscrapeNegotiationWebFilter(ObjectProvider<PathMappedEndpoints> pathMappedEndpoints,
			ObjectProvider<LeanscrapeScrapeEndpoint> endpoint) {
		return new ScrapeNegotiationWebFilter(new ScrapeEndpointPaths(pathMappedEndpoints, endpoint));
	}

	@Bean
	@ConditionalOnThreading(Threading.PLATFORM)
	ScrapeScheduler leanscrapeScrapeScheduler() {
		return ScrapeScheduler.platformThreads();
	}

	@Bean
	@ConditionalOnThreading(Threading.VIRTUAL)
	ScrapeScheduler leanscrapeVirtualThreadScrapeScheduler() {
		return ScrapeScheduler.virtualThreads();
	}

	@Bean
	WebFluxConfigurer leanscrapeWebFluxConfigurer(ObjectProvider<ScrapeResponder> responder,
			ScrapeScheduler scheduler) {
		ScrapeBodyHttpMessageWriter writer = new ScrapeBodyHttpMessageWriter(responder, scheduler);
		return new WebFluxConfigurer() {

			@Override
			public void configureHttpMessageCodecs(ServerCodecConfigurer configurer) {
				configurer.customCodecs().register(writer);
			}

		};
	}

}
