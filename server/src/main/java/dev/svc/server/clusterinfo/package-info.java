/**
 * How users reach the cluster (access-server spec §8): {@link dev.svc.server.clusterinfo.ClusterInfo},
 * read once at start-up by {@link dev.svc.server.clusterinfo.ClusterInfoSource} from the keys or a
 * ConfigMap.
 */
package dev.svc.server.clusterinfo;
