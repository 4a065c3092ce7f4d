package io.github.leanscrape.autoconfigure;

import io.github.leanscrape.endpoint.LeanscrapeScrapeEndpoint;
import io.github.leanscrape.web.ScrapeEndpointPaths;
import io.github.leanscrape.web.servlet.ScrapeBodyHttpMessageConverter;
import io.github.leanscrape.web.servlet.ScrapeNegotiationFilter;

import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;
import org.springframework.http.converter.HttpMessageConverters.ServerBuilder;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The servlet glue of the leanscrape endpoint, in whichever context serves actuator
 * endpoints (the main one, or the child one of {@code management.server.port}).
 *
 * @author leanscrape
 */
@ManagementContextConfiguration(value = ManagementContextType.ANY, proxyBeanMethods = false)
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnBean({ LeanscrapeScrapeEndpoint.class, PathMappedEndpoints.class })
public final class LeanscrapeServletManagementContextConfiguration {

	@Bean
	ScrapeNegotiationFilter leanscrapeNegotiationFilter(PathMappedEndpoints pathMappedEndpoints) {
		return new ScrapeNegotiationFilter(new ScrapeEndpointPaths(pathMappedEndpoints));
	}

	@Bean
	WebMvcConfigurer leanscrapeWebMvcConfigurer(LeanscrapeScrapeEndpoint endpoint) {
		ScrapeBodyHttpMessageConverter converter = new ScrapeBodyHttpMessageConverter(endpoint.scraper());
		return new WebMvcConfigurer() {

			@Override
			public void configureMessageConverters(ServerBuilder builder) {
				builder.addCustomConverter(converter);
			}

		};
	}

}
