//! Enumerations that survive new server values.
//!
//! Every enum of the API is a string on the wire. A value this client does not know is kept as
//! `Unknown(text)`, shown as it is and written back unchanged, so a server adding a state never
//! breaks decoding.

macro_rules! open_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident => $wire:literal),+ $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[non_exhaustive]
        pub enum $name {
            $($(#[$vmeta])* $variant,)+
            /// A value this client does not know, kept verbatim.
            Unknown(String),
        }

        impl $name {
            /// Every value the specification names.
            pub const KNOWN: &'static [$name] = &[$($name::$variant),+];

            /// The wire text.
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$variant => $wire,)+
                    Self::Unknown(s) => s,
                }
            }

            pub fn is_known(&self) -> bool {
                !matches!(self, Self::Unknown(_))
            }
        }

        /// What a proto3-JSON service's omitted enum decodes as: the empty value, kept as
        /// it came (never a guess at a named one).
        impl Default for $name {
            fn default() -> Self {
                Self::from("")
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                match s {
                    $($wire => Self::$variant,)+
                    other => Self::Unknown(other.to_owned()),
                }
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s: std::borrow::Cow<'de, str> = serde::Deserialize::deserialize(d)?;
                Ok(Self::from(s.as_ref()))
            }
        }
    };
}

pub(crate) use open_enum;
