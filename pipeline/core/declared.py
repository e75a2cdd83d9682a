"""The settings of the config's own tables (each package declares its own in its manifest)."""

from pipeline.core.settings import Setting

CLUSTER_ADDRESS = Setting(
    "cluster",
    "address",
    "text",
    "",
    'where the heavy jobs run: "" this machine, "local" a private Ray instance here, "auto" the Ray cluster '
    'this machine belongs to, "HOST:PORT" that Ray head',
)

CORE_SETTINGS = (CLUSTER_ADDRESS,)
